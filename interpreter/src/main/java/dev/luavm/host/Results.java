package dev.luavm.host;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Several results from a {@link HostFunction} ({@code return a, b} in Lua terms). */
public record Results(List<Object> values) {
    public Results {
        values = Collections.unmodifiableList(Arrays.asList(values.toArray()));
    }

    public static Results of(Object... values) {
        return new Results(Arrays.asList(values));
    }

    public static Results none() {
        return new Results(List.of());
    }
}
