package dev.luavm.contract;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.vfs.Vfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A contract's {@code filesystem:} section: parsed, checked against the mounts the host offers, enforced, shown. */
class ContractFilesystemTest {
    @TempDir
    Path dir;

    private final TestHost host = new TestHost();

    private Capabilities registry() throws IOException {
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("rates.csv"), "EUR,1.0\nUSD,1.1\n");
        Path out = Files.createDirectories(dir.resolve("out"));
        Vfs offered = Vfs.create().mountReadOnly("/data", data).mountReadWrite("/out", out, 1 << 20)
                .mountMemory("/tmp", 8 << 20).withMaxOpenFiles(32);
        return host.registry().toBuilder().filesystem(offered).build();
    }

    private static String contract(String filesystem, String... more) {
        String[] all = new String[more.length + 3];
        all[0] = "libraries: [base, string, table, io, os]";
        all[1] = "forbidden: [network, environment]";
        all[2] = filesystem;
        System.arraycopy(more, 0, all, 3, more.length);
        return TestHost.contract(all);
    }

    private ContractRunner bind(String text) throws IOException {
        return ContractRunner.bind(Contract.parse("c.yaml", text), registry(), HostCallPolicy.allowAll(), LuaVM.create());
    }

    @Test
    void theScriptGetsTheContractsMountsNarrowed() throws IOException {
        ContractRunner r = bind(contract("filesystem: {mounts: [{path: /data, mode: read-only}, "
                + "{path: /out, mode: read-only}, {path: /tmp, mode: memory, quota: 1KiB}], max_open_files: 4}"));
        Vfs vfs = r.capabilities().filesystem();
        assertEquals(List.of("/data read-only", "/out read-only", "/tmp memory, quota 1 KiB", "at most 4 open files, 10000 files created"),
                vfs.describe());
        Outcome o = r.run("@s.lua", """
                local n = 0 for _ in io.lines('/data/rates.csv') do n = n + 1 end
                local w, m = io.open('/out/x', 'w')
                local t = io.open('/tmp/t', 'w') t:setvbuf('no')
                local ok, why = t:write(string.rep('x', 2000))
                return {value = n .. '|' .. m .. '|' .. why}""".getBytes(StandardCharsets.UTF_8),
                "{\"name\": \"a\"}".getBytes(StandardCharsets.UTF_8), ContractRunner.Settings.DEFAULT);
        assertEquals(Category.OK, o.category(), o.message());
        assertEquals("{\"value\":\"2|/out/x: Read-only file system|No space left on device\"}", o.result().toString());
        assertTrue(!Files.exists(dir.resolve("out/x")));
    }

    @Test
    void aContractNeverLoosensAMountAndOnlyUsesOffersdOnes() throws IOException {
        ContractException e = assertThrows(ContractException.class,
                () -> bind(contract("filesystem: {mounts: [{path: /data, mode: read-write}]}")));
        assertTrue(e.getMessage().contains("filesystem.mounts[0].mode: 'read-write' is looser than the host's 'read-only'"), e.getMessage());
        e = assertThrows(ContractException.class, () -> bind(contract("filesystem: {mounts: [{path: /etc, mode: read-only}]}")));
        assertTrue(e.getMessage().contains("'/etc' is not a mount the host offers (it offers: /data, /out, /tmp)"), e.getMessage());
        e = assertThrows(ContractException.class, () -> bind(contract("filesystem: {mounts: [{path: /tmp, mode: memory, quota: 1GiB}]}")));
        assertTrue(e.getMessage().contains("filesystem.mounts[0].quota"), e.getMessage());
        e = assertThrows(ContractException.class, () -> bind(contract("filesystem: {mounts: [{path: /out, mode: overlay}]}",
                "forbidden: [writes:fs]")));
        assertTrue(e.getMessage().contains("'/out' is written (effects 'filesystem', 'writes:fs'), which the contract forbids ('writes:fs'"),
                e.getMessage());
        e = assertThrows(ContractException.class, () -> bind(contract("filesystem: {mounts: [{path: /data, mode: read-only}]}",
                "forbidden: [filesystem]")));
        assertTrue(e.getMessage().contains("which the contract forbids ('filesystem'"), e.getMessage());
        // the host offers none at all
        ContractException none = assertThrows(ContractException.class, () -> ContractRunner.bind(
                Contract.parse("c.yaml", contract("filesystem: {mounts: [{path: /tmp, mode: memory}]}")), host.registry(),
                HostCallPolicy.allowAll(), LuaVM.create()));
        assertTrue(none.getMessage().contains("(it offers: none)"), none.getMessage());
    }

    @Test
    void malformedSectionsNameTheirField() {
        for (String[] bad : new String[][] {
                {"filesystem: [a]", "filesystem: expected a mapping"},
                {"filesystem: {mounts: [{path: /a, mode: rw}]}", "filesystem.mounts[0].mode: 'rw' is not one of"},
                {"filesystem: {mounts: [{path: /a}]}", "filesystem.mounts[0]: 'mode' missing"},
                {"filesystem: {mounts: [{path: /a, mode: read-only, quota: 1m}]}", "a read-only mount is never written"},
                {"filesystem: {mounts: [{path: /a, mode: memory}, {path: /a, mode: memory}]}", "'/a' is listed twice"},
                {"filesystem: {mounts: [], colour: red}", "filesystem.colour: unknown field"},
                {"filesystem: {mounts: [], max_files: -1}", "filesystem.max_files"}}) {
            ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", contract(bad[0])), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]), bad[0] + " -> " + e.getMessage());
        }
    }

    @Test
    void theSummarySaysWhereFilesAreReadAndWritten() throws IOException {
        Contract c = Contract.parse("c.yaml", contract("filesystem: {mounts: [{path: /data, mode: read-only}, "
                + "{path: /tmp, mode: memory, quota: 8MiB}]}"));
        List<String> lines = ContractSummary.lines(c, registry());
        String all = String.join("\n", lines);
        assertTrue(all.contains("/data read-only; /tmp memory (quota 8"), all);
        assertTrue(all.contains("reads files only under: /data, never writes there"), all);
        assertTrue(all.contains("reads and writes files only under: /tmp"), all);
        assertTrue(!all.contains("cannot read or write files"), all);
    }
}
