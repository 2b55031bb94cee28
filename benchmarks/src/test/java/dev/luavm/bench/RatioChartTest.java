package dev.luavm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The chart RESULTS.md shows: well-formed SVG, a row per program, markers where the ratios are. */
class RatioChartTest {

    private static Report.Score s(double seconds) {
        return new Report.Score(seconds, Double.NaN, 1);
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> texts(Document d) {
        List<String> out = new ArrayList<>();
        NodeList nodes = d.getElementsByTagName("text");
        for (int i = 0; i < nodes.getLength(); i++) out.add(nodes.item(i).getTextContent());
        return out;
    }

    @Test
    void aRowPerProgramAndAMarkerPerRatio() throws Exception {
        List<String> programs = List.of("fib", "json_codec", "nbody");
        Map<String, Double> lua53 = Map.of("fib", 1.0, "json_codec", 0.5, "nbody", 2.0);
        Map<String, Report.Score> scores = Map.of(
                "a fib", s(1.0), "a json_codec", s(1.0), "a nbody", s(0.5),   // ratios 1, 2, 0.25
                "b fib", s(3.0), "b nbody", s(20.0));                        // 3, 10; json_codec missing
        Document d = parse(RatioChart.svg(programs, scores, lua53, List.of("a", "b"), List.of("json_codec")));
        List<String> texts = texts(d);
        assertTrue(texts.containsAll(List.of("fib", "json_codec *", "nbody", "geometric mean", "a", "b", "lua5.3 = 1.0")), texts.toString());
        // engine a's markers are circles: its legend, its three programs, its mean
        assertEquals(5, d.getElementsByTagName("circle").getLength());
        NodeList lines = d.getElementsByTagName("line");
        double oneX = Double.NaN;
        for (int i = 0; i < lines.getLength(); i++) {
            Element l = (Element) lines.item(i);
            if ("#000".equals(l.getAttribute("stroke"))) oneX = Double.parseDouble(l.getAttribute("x1"));
        }
        // fib on engine a is at 1.0: its circle sits on the 1.0 line; nbody's (0.25) left of it, json_codec's (2) right
        NodeList circles = d.getElementsByTagName("circle");
        double fibX = Double.parseDouble(((Element) circles.item(1)).getAttribute("cx"));
        double jsonX = Double.parseDouble(((Element) circles.item(2)).getAttribute("cx"));
        double nbodyX = Double.parseDouble(((Element) circles.item(3)).getAttribute("cx"));
        assertEquals(oneX, fibX, 0.1);
        assertTrue(jsonX > oneX && nbodyX < oneX, fibX + " " + jsonX + " " + nbodyX);
    }

    @Test
    void noChartWithoutRatios() {
        assertNull(RatioChart.svg(List.of("fib"), Map.of(), Map.of("fib", 1.0), List.of("a"), List.of()));
        assertNull(RatioChart.svg(List.of("fib"), Map.of("a fib", s(1.0)), Map.of(), List.of("a"), List.of()));
    }
}
