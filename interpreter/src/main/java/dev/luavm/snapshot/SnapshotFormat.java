package dev.luavm.snapshot;

import dev.luavm.bytecode.Prototype;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The constants of the snapshot format (docs/SNAPSHOT.md) and the helpers both sides use. */
public final class SnapshotFormat {
    private SnapshotFormat() {}

    /** The first eight bytes: a non-ASCII byte, "LVSNP", CR LF (a text-mode copy damages them). */
    static final byte[] MAGIC = {(byte) 0x89, 'L', 'V', 'S', 'N', 'P', 0x0D, 0x0A};
    /** The format version this runtime writes and the only one it reads. */
    public static final int VERSION = 1;
    /** Header flag: the snapshot holds a run paused at a host call. */
    static final int FLAG_PAUSED = 1;
    /** Header flag: the snapshot is sealed (an HMAC-SHA256 under the writing runtime's key precedes the checksum). */
    static final int FLAG_SEALED = 2;
    /** Bytes of a seal. */
    static final int SEAL_BYTES = 32;
    /** Bytes of a paused run's resume token. */
    public static final int TOKEN_BYTES = 16;
    /** Magic, version, at least a one-byte flags varint, the END tag and the checksum. */
    static final int MIN_SIZE = MAGIC.length + 2 + 1 + 1 + 4;

    /** CRC-32C of {@code b[off, off+len)}: the trailer, against accidental damage (not a signature). */
    static int crc(byte[] b, int off, int len) {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    static byte[] sha256(byte[] b) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(b);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The functions of a chunk in preorder (a function, then its children in index order). */
    static List<Prototype> preorder(Prototype main) {
        List<Prototype> out = new ArrayList<>();
        ArrayDeque<Prototype> todo = new ArrayDeque<>();
        todo.push(main);
        while (!todo.isEmpty()) {
            Prototype p = todo.pop();
            out.add(p);
            for (int i = p.protos.length - 1; i >= 0; i--) todo.push(p.protos[i]);
        }
        return out;
    }

    /** Whether {@code b} starts like a snapshot (the magic); says nothing of the rest. */
    public static boolean looksLikeSnapshot(byte[] b) {
        if (b == null || b.length < MAGIC.length) return false;
        for (int i = 0; i < MAGIC.length; i++) if (b[i] != MAGIC[i]) return false;
        return true;
    }

    /**
     * A copy of {@code snapshot} with {@code token} in place of its paused run's resume token and
     * the checksum renewed ({@code LuaVM.fork}). The snapshot's structure is checked only as far
     * as finding the token needs; the restore checks the rest.
     */
    public static byte[] withToken(byte[] snapshot, byte[] token) {
        Header h = Header.read(snapshot);
        if (!h.paused()) throw new SnapshotProblem("not a paused run: only a paused run has a resume token to renew");
        byte[] out = snapshot.clone();
        int at = tokenPosition(out, h);
        if (at < 0) throw ByteIn.bad("no paused-run section");
        System.arraycopy(token, 0, out, at, TOKEN_BYTES); // the seal reads the token as zeros: it still holds
        int crc = crc(out, 0, out.length - 4);
        for (int i = 0; i < 4; i++) out[out.length - 4 + i] = (byte) (crc >>> (24 - 8 * i));
        return out;
    }

    /**
     * The seal of {@code b[0, end)}: HMAC-SHA256 under {@code key}, computed with the resume token
     * (at {@code tokenPos}, or -1 for none) read as zeros, so that {@code LuaVM.fork} can give a
     * sealed paused run a new token without the key.
     */
    static byte[] seal(byte[] key, byte[] b, int end, int tokenPos) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            if (tokenPos < 0) {
                mac.update(b, 0, end);
            } else {
                mac.update(b, 0, tokenPos);
                mac.update(new byte[TOKEN_BYTES]);
                mac.update(b, tokenPos + TOKEN_BYTES, end - tokenPos - TOKEN_BYTES);
            }
            return mac.doFinal();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether a sealed snapshot's seal verifies under {@code key}. */
    static boolean sealVerifies(byte[] key, byte[] b, Header h) {
        byte[] want = seal(key, b, h.sectionsEnd, tokenPosition(b, h));
        byte[] got = java.util.Arrays.copyOfRange(b, h.sectionsEnd, h.sectionsEnd + SEAL_BYTES);
        return java.security.MessageDigest.isEqual(want, got);
    }

    /** Where a paused run's token starts, or -1 (not a paused run, or no such section). */
    static int tokenPosition(byte[] b, Header h) {
        if (!h.paused()) return -1;
        ByteIn in = h.sections(b);
        while (true) {
            Tag t = in.tag(Tag.Group.SECTION);
            if (t == Tag.END) return -1;
            ByteIn body = in.part(t.name().toLowerCase() + " section");
            if (t == Tag.PAUSED) return body.remaining() >= TOKEN_BYTES ? body.pos : -1;
        }
    }

    /** The fixed start of a snapshot, checked: magic, version, checksum, flags. */
    record Header(int flags, int sectionsStart, int sectionsEnd) {
        boolean paused() {
            return (flags & FLAG_PAUSED) != 0;
        }

        boolean sealed() {
            return (flags & FLAG_SEALED) != 0;
        }

        ByteIn sections(byte[] b) {
            return new ByteIn(b, sectionsStart, sectionsEnd);
        }

        static Header read(byte[] b) {
            if (b == null || b.length < MIN_SIZE || !looksLikeSnapshot(b)) {
                throw new SnapshotProblem("not a luavm snapshot (the bytes do not start with its magic number)");
            }
            int version = ((b[8] & 0xFF) << 8) | (b[9] & 0xFF);
            if (version != VERSION) {
                throw new SnapshotProblem("snapshot format version " + version + " cannot be read: this runtime reads version "
                        + VERSION);
            }
            int stored = 0;
            for (int i = b.length - 4; i < b.length; i++) stored = (stored << 8) | (b[i] & 0xFF);
            if (stored != crc(b, 0, b.length - 4)) throw new SnapshotProblem("damaged snapshot: its checksum does not match");
            ByteIn in = new ByteIn(b, 10, b.length - 4);
            long flags = in.varint();
            if ((flags & ~(FLAG_PAUSED | FLAG_SEALED)) != 0) throw ByteIn.bad("unknown header flags " + flags);
            int end = b.length - 4 - ((flags & FLAG_SEALED) != 0 ? SEAL_BYTES : 0);
            if (end < in.pos + 1) throw ByteIn.bad("cut short");
            return new Header((int) flags, in.pos, end);
        }
    }
}
