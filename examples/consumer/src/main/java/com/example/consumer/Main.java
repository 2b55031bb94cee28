package com.example.consumer;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaHandle;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.Results;

import java.time.Duration;
import java.util.List;

/** A host application: runs an untrusted rule under limits, with one granted host function. */
public final class Main {
    private Main() {}

    /**
     * Runs the example and prints what the script computed.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("shop.price", "the price of an item in cents", call -> switch (call.stringArg(0)) {
                    case "apple" -> 30;
                    case "pear" -> 45;
                    default -> null;
                })
                .build();
        Limits limits = Limits.defaults().withGas(5_000_000).withTimeout(Duration.ofSeconds(2));
        try (Sandbox sb = LuaVM.newSandbox(caps, limits)) {
            sb.setGlobal("cfg.discount", 10);
            int total = sb.evalAs("cart.lua", """
                    local total = 0
                    for _, item in ipairs(...) do total = total + shop.price(item) end
                    print(string.format("%d items", #...))
                    return total * (100 - cfg.discount) // 100
                    """, int.class, List.of("apple", "pear", "apple"));
            System.out.print(sb.output());
            System.out.println("total: " + total);

            LuaHandle greet = sb.evalAs("return function(name) return 'hello, ' .. name, #name end", LuaHandle.class);
            Results r = greet.call("consumer");
            System.out.println(r.first(String.class) + " (" + r.get(1, int.class) + " chars)");

            try {
                sb.eval("while true do end");
            } catch (LuaLimitException e) {
                System.out.println("stopped: " + e.limit());
            }
        }
        compiledTier(caps, limits);
    }

    /**
     * The compiled tier comes with dev.luavm:luavm and is on by default: a hot function runs as
     * JVM bytecode, with the results and gas the interpreter gives. One runtime compiles the script
     * once; each run gets a fresh sandbox, as each request of a server would.
     */
    private static void compiledTier(Capabilities caps, Limits limits) {
        LuaVM vm = LuaVM.create(); // LuaVM.builder().tier(Tier.INTERP) would keep everything interpreted
        CompiledChunk fib = vm.compile("fib.lua", """
                local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
                return fib(...)
                """);
        long result = 0;
        long gas = 0;
        for (int run = 0; run < 3; run++) {
            try (Sandbox sb = vm.sandbox().capabilities(caps).limits(limits).build()) {
                result = sb.run(fib, 24).first(long.class);
                gas = sb.usage().gas();
            }
        }
        System.out.println("fib(24) = " + result + " in " + gas + " gas, tier " + vm.tier() + ", compiled: "
                + vm.compiledFunctions());
    }
}
