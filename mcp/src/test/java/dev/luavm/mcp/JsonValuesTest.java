package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** JSON <-> Lua values: subtypes, arrays vs objects, and bounds on what a script can make the host encode. */
class JsonValuesTest {
    private static List<Object> results(String script) {
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard())) {
            return sb.evalAll("t", script);
        }
    }

    @Test
    void resultsKeepIntegersFloatsAndSpellWhatJsonLacks() {
        Object json = JsonValues.resultToJson(results("return 1, 1.0, 2^63, 1/0, -1/0, 0/0, print, 'é', '\\255'"));
        assertEquals(Arrays.asList(1L, 1.0, 9.223372036854776E18, "inf", "-inf", "nan", "<function>", "é",
                Map.of("base64", "/w==")), json);
    }

    @Test
    void argumentsFollowTheSchemaForEmptyTablesAndHoles() {
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of(
                "xs", Map.of("type", "array"), "o", Map.of("type", "object")));
        Object args = results("return {xs = {}, o = {}, ys = {}}").get(0);
        assertEquals(Map.of("xs", List.of(), "o", Map.of(), "ys", Map.of()), JsonValues.argumentsToJson(args, schema));
        Object holes = results("return {xs = {1, nil, 3}}").get(0);
        assertEquals(Map.of("xs", Arrays.asList(1L, null, 3L)), JsonValues.argumentsToJson(holes, schema));
        Object sparse = results("return {xs = {[1] = 1, [1000] = 2}}").get(0);
        assertEquals(Map.of("xs", Map.of("1", 1L, "1000", 2L)), JsonValues.argumentsToJson(sparse, schema),
                "too sparse for nulls: an object, never a million-element array");
        assertThrows(JsonValues.JsonException.class, () -> JsonValues.argumentsToJson(results("return {f = print}").get(0), schema));
        assertThrows(JsonValues.JsonException.class, () -> JsonValues.argumentsToJson(results("return {s = '\\255'}").get(0), schema));
    }

    @Test
    void aSharedSubTableBombIsRefusedNotExpanded() {
        Object dag = results("local t = {} for i = 1, 60 do t = {t, t} end return t").get(0);
        JsonValues.JsonException e = assertThrows(JsonValues.JsonException.class, () -> JsonValues.resultToJson(dag));
        assertTrue(e.getMessage().contains("values"), e.getMessage());
    }

    @Test
    void aSharedBigStringIsCountedPerSlot() {
        Object shared = results("local s = ('x'):rep(1 << 20) local t = {} for i = 1, 100 do t[i] = s end return t").get(0);
        JsonValues.JsonException e = assertThrows(JsonValues.JsonException.class, () -> JsonValues.resultToJson(shared));
        assertTrue(e.getMessage().contains("characters"), e.getMessage());
    }

    @Test
    void jsonNumbersBecomeLuaIntegersOrFloats() {
        assertEquals(Arrays.asList(1L, 2.5, 1.0E20, Map.of("a", 1L)), JsonValues.fromJson(Arrays.asList(1, 2.5,
                new BigInteger("100000000000000000000"), new java.util.LinkedHashMap<>(Map.of("a", 1)))));
        Map<String, Object> withNull = new java.util.HashMap<>();
        withNull.put("gone", null);
        assertEquals(Map.of(), JsonValues.fromJson(withNull));
    }
}
