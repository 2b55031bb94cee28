package dev.luavm;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Limits travel with a job's source to other machines: every limit survives the trip. */
class LimitsSerializationTest {
    @Test
    void everyLimitSurvivesSerialization() throws Exception {
        Limits l = Limits.defaults().withGas(1234).withMemory(5678).withCallDepth(99).withOutput(11)
                .withTimeout(Duration.ofMillis(250)).withSourceBytes(4096).withParseDepth(50).withRunGas(77).withAuditEvents(88);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(l);
        }
        Limits back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (Limits) in.readObject();
        }
        assertEquals(l.toString(), back.toString());
        assertEquals(77, back.runGas());
        assertEquals(88, back.auditEvents());
    }
}
