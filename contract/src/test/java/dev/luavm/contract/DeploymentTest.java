package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only approved versions run; a failure goes where the contract's rollback rule says. */
class DeploymentTest {
    @TempDir
    Path dir;

    private final TestHost host = new TestHost();
    private static final JsonNode INPUT = json("{\"name\": \"acme\"}");
    private static final byte[] GOOD_V1 = b("local input = ... return {value = 'v1:' .. lookup(input.name)}");
    private static final byte[] GOOD_V2 = b("local input = ... return {value = 'v2:' .. lookup(input.name)}");
    private static final byte[] BROKEN_V3 = b("local input = ... return {value = #input.name}");   // bad output

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode json(String s) {
        try {
            return new ObjectMapper().readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private Deployment deployment(String rollback) {
        ContractRunner r = Contract.parse("c.yaml", TestHost.contract("rollback: " + rollback)).bind(host.registry());
        return new Deployment(r, ApprovedStore.open(dir));
    }

    private static Decision run(Deployment d, byte[] script) {
        return d.run("job.lua", script, INPUT, ContractRunner.Settings.DEFAULT);
    }

    @Test
    void anApprovedVersionThatSucceedsIsAccepted() {
        Deployment d = deployment("manual-review");
        d.store().approve(GOOD_V1, "job.lua", "ann");
        Decision dec = run(d, GOOD_V1);
        assertEquals(Decision.Disposition.ACCEPTED, dec.disposition());
        assertEquals(json("{\"value\": \"v1:ACME\"}"), dec.result());
        assertNull(dec.fallback());
        assertEquals(dec, d.run(INPUT, ContractRunner.Settings.DEFAULT).disposition() == Decision.Disposition.ACCEPTED ? dec : null);
    }

    @Test
    void manualReviewMarksAFailedRunForReviewWithNothingReleased() {
        Deployment d = deployment("manual-review");
        d.store().approve(GOOD_V1, "job.lua", "ann");
        d.store().approve(BROKEN_V3, "job.lua", "ann");
        Decision dec = run(d, BROKEN_V3);
        assertEquals(Decision.Disposition.REVIEW, dec.disposition());
        assertNull(dec.result());
        assertEquals(Category.BAD_OUTPUT, dec.primary().category());
        assertNull(dec.fallback());   // nothing else ran
        assertTrue(dec.reason().contains("bad-output") && dec.reason().endsWith("marked for manual review"), dec.reason());
    }

    @Test
    void lastApprovedRunsThePreviousVersionOnTheSameInputAndRecordsBothRuns() {
        Deployment d = deployment("last-approved");
        d.store().approve(GOOD_V1, "job.lua", "ann");
        ApprovedVersion v2 = d.store().approve(GOOD_V2, "job.lua", "ann");
        d.store().approve(BROKEN_V3, "job.lua", "ann");
        Decision dec = run(d, BROKEN_V3);
        assertEquals(Decision.Disposition.ROLLED_BACK, dec.disposition());
        assertEquals(json("{\"value\": \"v2:ACME\"}"), dec.result());
        assertEquals(Category.BAD_OUTPUT, dec.primary().category());
        assertEquals(Category.OK, dec.fallback().category());
        assertEquals(v2.sha256(), dec.fallbackSha());
        assertEquals(v2.sha256(), dec.fallback().scriptSha256());
        assertTrue(!dec.primary().audit().isEmpty() && !dec.fallback().audit().isEmpty(), "both runs carry their logs");
        assertTrue(dec.reason().contains("rolled back to the last approved version " + v2.sha256()), dec.reason());
    }

    @Test
    void lastApprovedSkipsRevokedVersions() {
        Deployment d = deployment("last-approved");
        ApprovedVersion v1 = d.store().approve(GOOD_V1, "job.lua", "ann");
        ApprovedVersion v2 = d.store().approve(GOOD_V2, "job.lua", "ann");
        d.store().approve(BROKEN_V3, "job.lua", "ann");
        d.store().revoke(v2.sha256(), "carol", "rounding bug");
        Decision dec = run(d, BROKEN_V3);
        assertEquals(v1.sha256(), dec.fallbackSha());
        assertEquals(json("{\"value\": \"v1:ACME\"}"), dec.result());
    }

    @Test
    void lastApprovedWithNothingToFallBackToMarksForReview() {
        Deployment d = deployment("last-approved");
        d.store().approve(BROKEN_V3, "job.lua", "ann");
        Decision dec = run(d, BROKEN_V3);
        assertEquals(Decision.Disposition.REVIEW, dec.disposition());
        assertTrue(dec.reason().contains("no earlier approved version"), dec.reason());
    }

    @Test
    void lastApprovedWhoseFallbackFailsTooMarksForReviewWithBothRuns() {
        Deployment d = deployment("last-approved");
        d.store().approve(b("error('old bug')"), "job.lua", "ann");
        d.store().approve(BROKEN_V3, "job.lua", "ann");
        Decision dec = run(d, BROKEN_V3);
        assertEquals(Decision.Disposition.REVIEW, dec.disposition());
        assertNull(dec.result());
        assertEquals(Category.BAD_OUTPUT, dec.primary().category());
        assertEquals(Category.LOGIC_ERROR, dec.fallback().category());
        assertTrue(dec.reason().contains("failed too (logic-error)"), dec.reason());
    }

    @Test
    void aRevokedVersionNeverRunsAndFollowsTheRollbackRule() {
        Deployment review = deployment("manual-review");
        review.store().approve(GOOD_V1, "job.lua", "ann");
        ApprovedVersion v2 = review.store().approve(GOOD_V2, "job.lua", "ann");
        review.store().revoke(v2.sha256(), "carol", "leaks memos");
        Decision dec = run(review, GOOD_V2);
        assertEquals(Decision.Disposition.REVIEW, dec.disposition());
        assertNull(dec.primary());
        assertEquals(0, host.calls.get());
        assertTrue(dec.reason().contains("was revoked by carol: leaks memos"), dec.reason());

        Deployment fallback = deployment("last-approved");   // same store
        dec = run(fallback, GOOD_V2);
        assertEquals(Decision.Disposition.ROLLED_BACK, dec.disposition());
        assertNull(dec.primary());
        assertEquals(json("{\"value\": \"v1:ACME\"}"), dec.result());
        // the current version is the newest that stands
        assertEquals(json("{\"value\": \"v1:ACME\"}"), fallback.run(INPUT, ContractRunner.Settings.DEFAULT).result());
    }

    @Test
    void onlyTheApprovalOwnerApproves() {
        Deployment d = deployment("manual-review");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> d.approve(GOOD_V1, "job.lua", "mallory@example.com"));
        assertTrue(e.getMessage().contains("only owner@example.com approves versions under c.yaml"), e.getMessage());
        assertTrue(d.store().versions().isEmpty());
        ApprovedVersion v = d.approve(GOOD_V1, "job.lua", "owner@example.com");
        assertEquals("owner@example.com", v.approver());
        assertEquals(Decision.Disposition.ACCEPTED, run(d, GOOD_V1).disposition());
        d.revoke(v.sha256(), "anyone@example.com", "stop it");
        assertEquals(Decision.Disposition.REVIEW, run(d, GOOD_V1).disposition());
    }

    @Test
    void anUnapprovedVersionNeverRuns() {
        Deployment d = deployment("manual-review");
        Decision dec = run(d, GOOD_V1);
        assertEquals(Decision.Disposition.REVIEW, dec.disposition());
        assertNull(dec.primary());
        assertTrue(dec.reason().contains("is not approved"), dec.reason());
        assertEquals(0, host.calls.get());
        assertNotNull(d.run(INPUT, ContractRunner.Settings.DEFAULT).reason());   // no current version either
    }
}
