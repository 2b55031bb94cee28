package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.audit.Digests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The approved versions of one script, in a directory: who approved each version (by SHA-256)
 * and when, and which were revoked. Approval order is kept; the newest version that stands is
 * the current one.
 *
 * <h2>Layout and crash safety</h2>
 * <pre>
 *   DIR/approvals.json        {"format": 1, "versions": [{sha256, name, approver, approved_at,
 *                              revoked_by, revoked_at, revoke_reason}, ...]}
 *   DIR/scripts/SHA.lua       each approved script's bytes
 *   DIR/.lock                 held while a change is made (one writer at a time, across processes)
 * </pre>
 * Every file is written whole to a temporary file in the same directory, forced to disk, then
 * moved over its name with an atomic rename, and the directory is forced: a reader (or a process
 * started after a crash) sees the old file or the new one, never a mix. A script is stored before
 * the index names it, so an approved version's bytes are always there. A process killed at any
 * point loses at most the change it was making; every version approved before stays (the test
 * kills a writer process mid-write to check it). Leftover temporary files are removed when the
 * store is opened. A damaged index is reported, never silently replaced.
 *
 * <p>Thread-safe; use one instance per directory in a JVM (the file lock serializes processes).
 */
public final class ApprovedStore {
    static final String INDEX = "approvals.json";
    private static final String TMP = ".tmp-";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final Path scripts;
    private final Clock clock;

    private ApprovedStore(Path dir, Clock clock) {
        this.dir = dir;
        this.scripts = dir.resolve("scripts");
        this.clock = clock;
    }

    /** Opens (creating when absent) the store in {@code dir}. */
    public static ApprovedStore open(Path dir) {
        return open(dir, Clock.systemUTC());
    }

    /** Opens the store with the clock that dates approvals and revocations. */
    public static ApprovedStore open(Path dir, Clock clock) {
        ApprovedStore s = new ApprovedStore(Objects.requireNonNull(dir, "dir"), Objects.requireNonNull(clock, "clock"));
        try {
            Files.createDirectories(s.scripts);
            s.locked(() -> {
                s.removeLeftovers(dir);
                s.removeLeftovers(s.scripts);
                s.read();   // a damaged index fails here, not at the first run
                return null;
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the approved-version store " + dir, e);
        }
        return s;
    }

    public Path directory() {
        return dir;
    }

    /**
     * Approves {@code script}: stores its bytes and records the approval. Approving a version
     * that stands returns its record unchanged.
     *
     * @throws IllegalStateException when that version was revoked (a revoked version is not approved again)
     */
    public synchronized ApprovedVersion approve(byte[] script, String name, String approver) {
        Objects.requireNonNull(script, "script");
        requireText(approver, "approver");
        String sha = Digests.sha256(script);
        return locked(() -> {
            List<ApprovedVersion> versions = read();
            for (ApprovedVersion v : versions) {
                if (v.sha256().equals(sha)) {
                    if (v.revoked()) {
                        throw new IllegalStateException("version " + sha + " was revoked by " + v.revokedBy()
                                + " (" + v.revokeReason() + "); a revoked version cannot be approved again");
                    }
                    return v;
                }
            }
            writeAtomically(scripts.resolve(sha + ".lua"), script);
            ApprovedVersion v = new ApprovedVersion(sha, name == null ? "" : name, approver, clock.instant(), null, null, null);
            versions.add(v);
            write(versions);
            return v;
        });
    }

    /** Revokes the version {@code sha256}: it will not run again, and rollbacks skip it. */
    public synchronized ApprovedVersion revoke(String sha256, String by, String reason) {
        requireText(by, "by");
        return locked(() -> {
            List<ApprovedVersion> versions = read();
            for (int i = 0; i < versions.size(); i++) {
                ApprovedVersion v = versions.get(i);
                if (!v.sha256().equals(sha256)) continue;
                if (v.revoked()) return v;
                ApprovedVersion r = v.revoke(by, clock.instant(), reason == null ? "" : reason);
                versions.set(i, r);
                write(versions);
                return r;
            }
            throw new IllegalArgumentException("no approved version " + sha256);
        });
    }

    /** Every version, in approval order, revoked ones included. */
    public synchronized List<ApprovedVersion> versions() {
        return locked(this::read);
    }

    /** The version {@code sha256}, if it was ever approved. */
    public Optional<ApprovedVersion> find(String sha256) {
        return versions().stream().filter(v -> v.sha256().equals(sha256)).findFirst();
    }

    /** True when {@code sha256} is approved and not revoked. */
    public boolean stands(String sha256) {
        return find(sha256).map(v -> !v.revoked()).orElse(false);
    }

    /** The newest version that stands. */
    public Optional<ApprovedVersion> current() {
        List<ApprovedVersion> vs = versions();
        for (int i = vs.size() - 1; i >= 0; i--) if (!vs.get(i).revoked()) return Optional.of(vs.get(i));
        return Optional.empty();
    }

    /**
     * The version to roll back to from {@code sha256}: the newest standing version approved
     * before it (or, when {@code sha256} was never approved, the newest standing version).
     */
    public Optional<ApprovedVersion> previous(String sha256) {
        List<ApprovedVersion> vs = versions();
        int end = vs.size();
        for (int i = 0; i < vs.size(); i++) if (vs.get(i).sha256().equals(sha256)) end = i;
        for (int i = end - 1; i >= 0; i--) if (!vs.get(i).revoked()) return Optional.of(vs.get(i));
        return Optional.empty();
    }

    /** The bytes of an approved version (checked against its SHA-256). */
    public byte[] script(String sha256) {
        try {
            byte[] b = Files.readAllBytes(scripts.resolve(sha256 + ".lua"));
            if (!Digests.sha256(b).equals(sha256)) throw new IOException("script " + sha256 + " does not match its digest");
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException("approved version " + sha256 + " cannot be read", e);
        }
    }

    // ------------------------------------------------------------------ files

    private interface Work<T> {
        T run() throws IOException;
    }

    private <T> T locked(Work<T> work) {
        try (FileChannel ch = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = ch.lock()) {
            return work.run();
        } catch (IOException e) {
            throw new UncheckedIOException("approved-version store " + dir + ": " + e.getMessage(), e);
        }
    }

    private List<ApprovedVersion> read() throws IOException {
        Path index = dir.resolve(INDEX);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(index);
        } catch (NoSuchFileException e) {
            return new ArrayList<>();
        }
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IOException("the index " + index + " is damaged: " + e.getMessage(), e);
        }
        if (root == null || root.path("format").asInt() != 1 || !root.path("versions").isArray()) {
            throw new IOException("the index " + index + " is damaged or of an unknown format");
        }
        List<ApprovedVersion> out = new ArrayList<>();
        for (JsonNode v : root.get("versions")) {
            out.add(new ApprovedVersion(v.path("sha256").asText(), v.path("name").asText(""), v.path("approver").asText(),
                    Instant.parse(v.path("approved_at").asText()), textOrNull(v, "revoked_by"),
                    v.hasNonNull("revoked_at") ? Instant.parse(v.get("revoked_at").asText()) : null,
                    textOrNull(v, "revoke_reason")));
        }
        return out;
    }

    private static String textOrNull(JsonNode v, String f) {
        return v.hasNonNull(f) ? v.get(f).asText() : null;
    }

    private void write(List<ApprovedVersion> versions) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", 1);
        ArrayNode arr = root.putArray("versions");
        for (ApprovedVersion v : versions) {
            ObjectNode o = arr.addObject();
            o.put("sha256", v.sha256());
            o.put("name", v.name());
            o.put("approver", v.approver());
            o.put("approved_at", v.approvedAt().toString());
            o.put("revoked_by", v.revokedBy());
            o.put("revoked_at", v.revokedAt() == null ? null : v.revokedAt().toString());
            o.put("revoke_reason", v.revokeReason());
        }
        writeAtomically(dir.resolve(INDEX), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root)
                .concat("\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to a temporary file beside {@code target}, forces it, renames it over {@code target} atomically, forces the directory. */
    static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path parent = target.getParent();
        Path tmp = Files.createTempFile(parent, target.getFileName() + TMP, "");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) ch.write(buf);
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the file system cannot rename atomically in " + parent, e);
            }
            forceDirectory(parent);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void forceDirectory(Path dir) {
        // makes the rename durable; some platforms cannot open a directory, and there it is best effort
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // nothing more can be done portably
        }
    }

    private void removeLeftovers(Path d) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(d, "*" + TMP + "*")) {
            for (Path p : s) Files.deleteIfExists(p);
        }
    }

    private static void requireText(String s, String what) {
        if (s == null || s.isBlank()) throw new IllegalArgumentException(what + " must be named");
    }
}
