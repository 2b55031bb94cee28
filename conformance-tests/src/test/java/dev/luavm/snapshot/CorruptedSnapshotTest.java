package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 25's "done when": every one of 1,000 corrupted copies of a rich snapshot either restores
 * to a working sandbox or fails with {@link LuaSnapshotException} (seeded, so a failure is
 * reproducible by its seed). Damage the checksum catches is the easy case; the copies here are
 * re-sealed (their checksum renewed), as a hostile snapshot would be, so every check of the
 * structure is what stands between them and the VM. A re-sealed copy may also describe a state
 * that is well formed but does not fit the limits (a stack larger than the memory cap): that is
 * a {@link LuaLimitException}, as for any valid snapshot too large for its sandbox.
 */
class CorruptedSnapshotTest {
    static final LuaVM VM = LuaVM.create();
    static final Limits LIMITS = Limits.defaults().withMemory(16L << 20).withGas(5_000_000)
            .withTimeout(Duration.ofSeconds(5)).withOutput(1 << 16);

    static byte[] richSnapshot() {
        Sandbox sb = VM.sandbox().capabilities(Capabilities.standard()).limits(LIMITS).randomSeed(9).build();
        sb.eval("setup", RichState.SETUP);
        return sb.snapshot();
    }

    @Test
    void damageTheChecksumCatches() {
        byte[] good = richSnapshot();
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            byte[] bad = mutate(good, rnd);
            if (Arrays.equals(bad, good)) continue;
            LuaSnapshotException e = org.junit.jupiter.api.Assertions.assertThrows(LuaSnapshotException.class, () -> restore(bad));
            assertNull(e.getCause());
        }
    }

    @Test
    void thousandResealedCorruptions() {
        byte[] good = richSnapshot();
        String expected = use(restore(good));
        int restored = 0;
        int refused = 0;
        int limited = 0;
        for (int seed = 0; seed < 1000; seed++) {
            byte[] bad = reseal(mutate(good, new SplittableRandom(seed)));
            Sandbox sb;
            try {
                sb = restore(bad);
            } catch (LuaSnapshotException e) {
                // a reader bug would surface as an unexpected exception kept as the cause
                if (e.getCause() != null) throw new AssertionError("seed " + seed + ": " + e.getMessage(), e.getCause());
                refused++;
                continue;
            } catch (LuaLimitException e) {
                limited++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ": restore threw " + e, e);
            }
            restored++;
            String out;
            try {
                out = use(sb);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ": the restored sandbox failed with " + e, e);
            }
            assertTrue(out != null, "seed " + seed);
            try {
                sb.snapshot(); // what was restored can be snapshotted again
            } catch (LuaSnapshotException e) {
                fail("seed " + seed + ": a restored state cannot be snapshotted: " + e.getMessage());
            }
        }
        System.out.println("[snapshot] 1000 re-sealed corruptions: " + restored + " restored, " + refused + " refused, "
                + limited + " over a limit");
        assertEquals(1000, restored + refused + limited);
        assertTrue(refused > 500, "most corruptions are refused");
        assertTrue(expected.length() > 100);
    }

    static Sandbox restore(byte[] snap) {
        return VM.sandbox().capabilities(Capabilities.standard()).limits(LIMITS).restoreFrom(snap).build();
    }

    /** Runs the state through its paces: its output, or what ended it (any Lua outcome is fine, nothing else). */
    static String use(Sandbox sb) {
        StringBuilder out = new StringBuilder();
        for (String code : new String[] {RichState.USE, "for k, v in pairs(_G) do if type(v) == 'function' then pcall(v) end end",
                "collectgarbage() return collectgarbage('count')"}) {
            try {
                out.append(sb.eval("use", code)).append('\n').append(sb.output());
            } catch (LuaScriptException | LuaLimitException e) {
                out.append(e.getClass().getSimpleName()).append('\n');
            } catch (LuaException e) {
                throw new AssertionError("unexpected " + e, e);
            }
        }
        return out.toString();
    }

    /** One to four random changes: flipped bits, random bytes, a cut, an insertion, a deletion, a copied span. */
    static byte[] mutate(byte[] in, SplittableRandom rnd) {
        byte[] b = in.clone();
        int n = 1 + rnd.nextInt(4);
        for (int k = 0; k < n; k++) {
            int body = b.length - 4; // keep the checksum's place; reseal renews it
            switch (rnd.nextInt(6)) {
                case 0 -> b[rnd.nextInt(body)] ^= (byte) (1 << rnd.nextInt(8));
                case 1 -> b[rnd.nextInt(body)] = (byte) rnd.nextInt(256);
                case 2 -> b = Arrays.copyOf(b, Math.max(12, rnd.nextInt(b.length)) );
                case 3 -> {
                    int at = rnd.nextInt(body);
                    byte[] ins = new byte[1 + rnd.nextInt(8)];
                    for (int i = 0; i < ins.length; i++) ins[i] = (byte) rnd.nextInt(256);
                    b = splice(b, at, 0, ins);
                }
                case 4 -> {
                    int at = rnd.nextInt(body);
                    b = splice(b, at, Math.min(1 + rnd.nextInt(16), b.length - at - 1), new byte[0]);
                }
                default -> {
                    int from = rnd.nextInt(body);
                    int len = Math.min(1 + rnd.nextInt(32), body - from);
                    int to = rnd.nextInt(body - len + 1);
                    System.arraycopy(b, from, b, to, len);
                }
            }
            if (b.length < 16) break;
        }
        return b;
    }

    static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }

    /** The checksum renewed, as a forger would. */
    static byte[] reseal(byte[] b) {
        if (b.length < 4) return b;
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length - 4);
        int v = (int) c.getValue();
        for (int i = 0; i < 4; i++) b[b.length - 4 + i] = (byte) (v >>> (24 - 8 * i));
        return b;
    }
}
