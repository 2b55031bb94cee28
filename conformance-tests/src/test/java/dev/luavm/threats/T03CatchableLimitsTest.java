package dev.luavm.threats;

import dev.luavm.LuaLimitException.Limit;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.assertLimit;

/** T3 pcall retry loops must not swallow gas, timeout or cancellation (see T16 for cancel). */
class T03CatchableLimitsTest {
    @Test
    void pcallRetryLoopOnGas() {
        assertLimit(Limit.GAS, "while true do pcall(function() while true do end end) end");
    }

    @Test
    void pcallOfTheSpinDirectly() {
        assertLimit(Limit.GAS, "local ok, e = pcall(function() while true do end end) return 'swallowed', ok, e");
    }

    @Test
    void xpcallWithAHandlerThatReturns() {
        assertLimit(Limit.GAS, "return xpcall(function() while true do end end, function(e) return e end)");
    }

    @Test
    void pcallInsideCoroutines() {
        assertLimit(Limit.GAS, "local co = coroutine.wrap(function() while true do pcall(error) end end) "
                + "while true do pcall(co) end");
    }

    @Test
    void pcallRetryLoopOnTime() {
        assertLimit(Limit.TIME, TIGHT.withGas(Long.MAX_VALUE).withTimeout(Duration.ofMillis(200)),
                "while true do pcall(function() while true do end end) end");
    }

    @Test
    void pcallOfErrorWithLimitLikeMessagesIsAnOrdinaryError() {
        // a script cannot fake a limit to escape: error("gas limit exceeded") is a normal Lua error
        ThreatSupport.assertScriptError("gas limit exceeded", "error('gas limit exceeded')");
    }

    @Test
    void outputLimitIsNotCatchable() {
        assertLimit(Limit.OUTPUT, "while true do pcall(print, string.rep('x', 1000)) end");
    }
}
