package io.envbench.measure.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Failed samples counted by environment, label, code and message; successes and the warm-up left out. */
class ResponseErrorsTest {
    @Test
    void failedSamplesAfterTheWarmupAreCountedByCode(@TempDir Path dir) throws Exception {
        Path jtl = dir.resolve("docker-r1.jtl");
        Files.writeString(
                jtl,
                String.join(
                        "\n",
                        "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes",
                        "900,5,2 POST /login,502,Bad Gateway,t1,text,false,,10", // in the warm-up: left out
                        "1000,5,2 POST /login,502,Bad Gateway,t1,text,false,,10",
                        "1001,5,2 POST /login,502,Bad Gateway,t2,text,false,,10",
                        "1002,5,4 POST /projects/envbench/issues,422,\"Unprocessable Entity, token\",t1,text,false,,10",
                        "1003,5,1 GET /login,200,OK,t1,text,true,,10",
                        "1004,5,1 GET /login,200,OK,t1,text,false,Test failed,10",
                        ""));
        ResponseErrors errors = new ResponseErrors();
        errors.read(jtl, "docker", 1000);
        assertEquals(
                List.of(
                        new ResponseErrors.Row("docker", "1 GET /login", "200", "OK", 1),
                        new ResponseErrors.Row("docker", "2 POST /login", "502", "Bad Gateway", 2),
                        new ResponseErrors.Row(
                                "docker", "4 POST /projects/envbench/issues", "422", "Unprocessable Entity, token", 1)),
                errors.rows());
        assertEquals(Map.of("docker", Map.of("200", 1L, "422", 1L, "502", 2L)), errors.byEnvironmentAndCode());
    }
}
