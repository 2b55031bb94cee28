package dev.luavm.snapshot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25's "done when", first part, with fresh JVMs: a program builds a rich state (closures
 * sharing upvalues, metatables, a suspended generator coroutine, weak tables, binary strings)
 * and snapshots it in one JVM; another JVM restores it and goes on, and prints what a third JVM
 * running both parts in one sandbox prints, with the same gas, step by step.
 */
class CrossJvmSnapshotTest {
    /** The program's first part: the state. Written for this test, apart from the snapshot code. */
    static final String BUILD = """
            -- a bank of accounts: closures sharing one upvalue per account
            local function open(owner, balance)
              local history = {}
              local function log(what, n) history[#history + 1] = what .. ':' .. n end
              return {
                owner = owner,
                deposit = function(n) balance = balance + n; log('in', n) end,
                withdraw = function(n)
                  if n > balance then error('insufficient funds for ' .. owner, 2) end
                  balance = balance - n; log('out', n)
                end,
                balance = function() return balance end,
                history = function() return table.concat(history, ' ') end,
              }
            end
            bank = {open('ana', 50), open('bo', 5)}
            bank[1].deposit(25)
            bank[2].withdraw(3)
            -- money with a metatable
            Money = {}
            Money.__index = Money
            Money.__add = function(a, b) return Money.of(a.cents + b.cents) end
            Money.__lt = function(a, b) return a.cents < b.cents end
            Money.__tostring = function(m) return string.format('$%d.%02d', m.cents // 100, m.cents % 100) end
            function Money.of(c) return setmetatable({cents = c}, Money) end
            total = Money.of(1999) + Money.of(1)
            -- a generator suspended in the middle of its loop
            fib = coroutine.wrap(function()
              local a, b = 0, 1
              while true do coroutine.yield(a); a, b = b, a + b end
            end)
            for i = 1, 10 do fib() end
            -- a consumer coroutine suspended with a pcall under it
            sums = coroutine.create(function()
              local s = 0
              while true do
                local ok, v = pcall(function() return coroutine.yield(s) end)
                s = s + (tonumber(v) or 0)
              end
            end)
            coroutine.resume(sums)
            coroutine.resume(sums, 10)
            -- weak tables: a cache keyed by objects, a registry of values
            memo = setmetatable({}, {__mode = 'k'})
            keep = {}
            memo[keep] = 'kept'
            memo[{}] = 'dropped at the next collection'
            names = setmetatable({}, {__mode = 'v'})
            names.keep = keep
            -- binary strings and exact numbers
            blob = string.pack('<i4 d s1', -7, -0.0, '\\0\\255\\n') .. '\\xff\\xfe'
            numbers = {1/0, -1/0, 0/0, -0.0, 2^-1074, math.maxinteger, math.mininteger, 0.1 + 0.2}
            seen = {}
            for i = 1, 5 do seen[i] = math.random(100) end
            print(tostring({}), tostring(bank[1].deposit))
            """;

    /** The program's second part, run after the restore (or straight on): each step is a run of its own. */
    static final String[] CONTINUE = {
        """
        bank[1].deposit(5); bank[2].deposit(100)
        print(bank[1].balance(), bank[2].balance(), bank[1].history(), bank[2].history())
        print(pcall(bank[2].withdraw, 1000))
        print(tostring(total), total < Money.of(2001), tostring(total + Money.of(5)))
        """,
        """
        local f = {} for i = 1, 5 do f[i] = fib() end
        print(table.concat(f, ','))
        print(coroutine.resume(sums, 5), coroutine.resume(sums, 'x'), coroutine.resume(sums, '2.5'))
        print(coroutine.status(sums))
        """,
        """
        local n = 0 for k, v in pairs(memo) do n = n + 1 end
        collectgarbage()
        local m = 0 for k, v in pairs(memo) do m = m + 1 end
        print(n, m, names.keep == keep, memo[keep])
        print(#blob, string.unpack('<i4 d s1', blob))
        print(blob:byte(-2, -1))
        local q = {} for i = 1, #numbers do q[i] = string.format('%q', numbers[i]) end print(table.concat(q, ' '))
        print(1 / numbers[4], math.type(numbers[6]))
        print(math.random(100), math.random(), table.concat(seen, ' '))
        local t = {} for i = 1, 200 do t[i] = math.random(1000) end
        table.sort(t) print(t[1], t[100], t[200])
        print(tostring({}), tostring({}), tostring(bank[1].deposit), tostring(fib))
        print(collectgarbage('count') > 10, os.time(), os.date('!%Y-%m-%d %H:%M:%S'))
        """,
    };

    /** A run that pauses at a host call inside a coroutine, with a pcall and a metamethod frame under it. */
    static final String PAUSING = """
            local log = {}
            local T = setmetatable({}, {__index = function(t, k)
              local ok, answer = pcall(approve, k, #log)
              log[#log + 1] = k .. '=' .. tostring(answer)
              return answer
            end})
            local co = coroutine.wrap(function(n)
              local s = 0
              for i = 1, n do s = s + i * 0.5 end
              print('before', s, math.random(100))
              local a = T.refund
              print('after', a, s, math.random(100))
              return a .. ':' .. s
            end)
            local r = co(10)
            print(r, table.concat(log, ','), tostring({}))
            return r
            """;

    @TempDir
    Path dir;

    @Test
    void twoFreshJvmsContinueAsOne() throws Exception {
        Path snap = dir.resolve("state.luavm");
        assertEquals("saved", child("save", snap.toString()));
        String restored = child("restore", snap.toString());
        String straight = child("straight");
        String text = new String(Base64.getDecoder().decode(restored.substring(restored.indexOf("output=") + 7)),
                StandardCharsets.UTF_8);
        System.out.println("[snapshot] snapshot of " + Files.size(snap) + " bytes; restored in a fresh JVM:\n" + text
                + restored.substring(0, restored.indexOf("output=")));
        assertEquals(straight, restored);
        assertTrue(text.contains("55,89,144,233,377"), text);
        assertTrue(text.contains("$20.00\ttrue\t$20.05"), text);
    }

    @Test
    void aRunPausedInOneJvmResumesInAnother() throws Exception {
        Path snap = dir.resolve("paused.luavm");
        String paused = child("pause", snap.toString());
        assertTrue(paused.startsWith("paused at approve [refund, 0]"), paused);
        String before = new String(Base64.getDecoder().decode(paused.substring(paused.indexOf("output=") + 7)),
                StandardCharsets.UTF_8);
        String resumed = child("resume-paused", snap.toString());
        String straight = child("straight-paused");
        String after = new String(Base64.getDecoder().decode(resumed.substring(resumed.indexOf("output=") + 7)),
                StandardCharsets.UTF_8);
        String all = new String(Base64.getDecoder().decode(straight.substring(straight.indexOf("output=") + 7)),
                StandardCharsets.UTF_8);
        System.out.println("[snapshot] paused in one JVM:\n" + before + "resumed in another:\n" + after + resumed.substring(0,
                resumed.indexOf(" output=")));
        assertEquals(all, before + after);
        assertEquals(straight.substring(0, straight.indexOf(" output=")), resumed.substring(0, resumed.indexOf(" output=")));
    }

    static String child(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SnapshotChild.class.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
            assertEquals(0, p.exitValue(), "child failed: " + out);
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
