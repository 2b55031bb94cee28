package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T17 Algorithmic complexity, at the host-call door: converting a host function's arguments and
 * results copies every byte of every string, so it is charged by the gas rule (1 per value, 1 per
 * 8 bytes) before the copy. The red team passed a 32 MiB string to a host function 100 times for
 * 3,533 gas.
 */
class T17HostCallWorkTest {
    private static Sandbox sandbox(Limits limits) {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("host.len", "length of a string", call -> (long) call.stringArg(0).length())
                .grant("host.echo", "its argument back", call -> call.arg(0))
                .grant("host.big", "a string of n bytes", call -> "y".repeat((int) call.longArg(0)))
                .build();
        return ThreatSupport.VM.sandbox(caps, limits);
    }

    private static long gasOf(String script) {
        try (Sandbox sb = sandbox(Limits.defaults().withGas(1L << 40).withMemory(256L << 20))) {
            sb.eval("setup", "s = string.rep('x', 4 << 20)"); // the argument, built before the measured run
            sb.eval("attack", script);
            return sb.usage().gas();
        }
    }

    @Test
    void largeStringArgumentsArePaidByTheByte() {
        long one = gasOf("host.len(s)");
        long ten = gasOf("for i = 1, 10 do host.len(s) end");
        System.out.println("[T17] host call with a 4 MiB argument: " + one + " gas; ten calls: " + ten);
        assertTrue(one >= (4 << 20) / 8, "a 4 MiB argument was charged only " + one + " gas");
        assertTrue(ten >= 9 * one, "ten calls cost " + ten + " gas, one " + one);
    }

    @Test
    void largeResultsArePaidByTheByte() {
        long small = gasOf("host.big(8)");
        long big = gasOf("host.big(4 << 20)");
        assertTrue(big - small >= (4 << 20) / 8, "a 4 MiB result was charged only " + (big - small) + " more gas");
    }

    @Test
    void echoLoopEndsOnGas() {
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (Sandbox sb = sandbox(Limits.defaults().withGas(10_000_000).withMemory(256L << 20))) {
                sb.eval("attack", "local s = string.rep('x', 32 << 20) for i = 1, 100 do host.echo(s) end");
            }
        }));
        assertEquals(Limit.GAS, e.limit());
    }
}
