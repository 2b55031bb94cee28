package dev.luavm.host;

import dev.luavm.LuaConversionException;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Userdata;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ValueConverterTest {
    private final MemoryMeter meter = new MemoryMeter(1 << 24);
    private final ValueConverter conv = new ValueConverter(ValueConverter.Handles.NONE, meter, 50, 10_000, false);

    record Vendor(String name, int id, List<String> tags) {}

    enum Color { RED }

    @Test
    void scalarsRoundTrip() {
        assertEquals(5L, conv.toLua(5));
        assertEquals(5L, conv.toLua((short) 5));
        assertEquals(1.5, conv.toLua(1.5f));
        assertEquals(LuaString.of("héllo"), conv.toLua("héllo"));
        assertEquals("héllo", conv.toJava(LuaString.of("héllo")));
        assertEquals(LuaString.of("RED"), conv.toLua(Color.RED));
        assertEquals(null, conv.toJava(conv.toLua(null)));
        assertEquals(true, conv.toJava(conv.toLua(true)));
    }

    @Test
    void stringsThatAreNotUtf8ComeBackAsBytes() {
        byte[] raw = {(byte) 0xff, 0, 65};
        Object lua = conv.toLua(raw);
        assertEquals(3, ((LuaString) lua).length());
        assertArrayEquals(raw, (byte[]) conv.toJava(lua));
        ValueConverter binary = new ValueConverter(ValueConverter.Handles.NONE, meter, 50, 100, true);
        assertArrayEquals("ok".getBytes(), (byte[]) binary.toJava(LuaString.of("ok")));
    }

    @Test
    void collectionsRecordsAndMaps() {
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("list", List.of(1, 2, 3));
        in.put("vendor", new Vendor("acme", 7, List.of("a")));
        in.put("ints", new int[] {4, 5});
        Object lua = conv.toLua(in);
        assertInstanceOf(LuaTable.class, lua);
        @SuppressWarnings("unchecked")
        Map<Object, Object> back = (Map<Object, Object>) conv.toJava(lua);
        assertEquals(List.of(1L, 2L, 3L), back.get("list"));
        assertEquals(Map.of("name", "acme", "id", 7L, "tags", List.of("a")), back.get("vendor"));
        assertEquals(List.of(4L, 5L), back.get("ints"));
    }

    @Test
    void emptyTableIsAMapAndHolesMakeAMap() {
        assertEquals(Map.of(), conv.toJava(new LuaTable(meter)));
        LuaTable t = new LuaTable(meter);
        t.putInt(1, 1L);
        t.putInt(3, 3L);
        assertEquals(Map.of(1L, 1L, 3L, 3L), conv.toJava(t));
    }

    @Test
    void opaqueObjectsTravelAsUserdata() {
        Object secret = new Object();
        Object lua = conv.toLua(secret);
        assertInstanceOf(Userdata.class, lua);
        assertSame(secret, conv.toJava(lua));
    }

    @Test
    void cyclesFailClearlyBothWays() {
        LuaTable t = new LuaTable(meter);
        t.put(LuaString.of("self"), t);
        LuaConversionException e = assertThrows(LuaConversionException.class, () -> conv.toJava(t));
        assertTrue(e.getMessage().contains("cyclic"), e.getMessage());
        List<Object> l = new ArrayList<>();
        l.add(l);
        assertThrows(LuaConversionException.class, () -> conv.toLua(l));
    }

    @Test
    void sharedStructureStaysShared() {
        List<Object> shared = List.of(1);
        Object lua = conv.toLua(List.of(shared, shared));
        @SuppressWarnings("unchecked")
        List<Object> back = (List<Object>) conv.toJava(lua);
        assertSame(back.get(0), back.get(1));
    }

    @Test
    void depthAndElementCaps() {
        Object deep = null;
        for (int i = 0; i < 100_000; i++) deep = List.of(deep == null ? 0 : deep);
        Object finalDeep = deep;
        assertThrows(LuaConversionException.class, () -> conv.toLua(finalDeep));

        LuaTable lt = new LuaTable(meter);
        LuaTable cur = lt;
        for (int i = 0; i < 100_000; i++) {
            LuaTable n = new LuaTable(meter);
            cur.putInt(1, n);
            cur = n;
        }
        assertThrows(LuaConversionException.class, () -> conv.toJava(lt));

        List<Integer> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) many.add(i);
        assertThrows(LuaConversionException.class, () -> conv.toLua(many));
    }

    @Test
    void conversionChargesTheMeter() {
        long before = meter.totalCharged();
        Map<String, String> m = new HashMap<>();
        m.put("k", "x".repeat(1000));
        conv.toLua(m);
        assertTrue(meter.totalCharged() - before >= 1000);
        MemoryMeter tiny = new MemoryMeter(500);
        ValueConverter c = new ValueConverter(ValueConverter.Handles.NONE, tiny, 50, 100, false);
        assertThrows(dev.luavm.vm.LuaError.class, () -> c.toLua("y".repeat(10_000)));
    }
}
