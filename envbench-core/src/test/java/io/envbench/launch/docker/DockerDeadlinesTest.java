package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class DockerDeadlinesTest {
    @Test
    void everyCallHasADeadlineAndOnlyLongLivedStreamsHaveNone() {
        assertEquals(Optional.of(DockerDeadlines.PING), DockerDeadlines.of("GET", "/_ping"));
        assertEquals(
                Optional.of(DockerDeadlines.CALL), DockerDeadlines.of("GET", "/containers/json?all=1&filters=%7B%7D"));
        assertEquals(
                Optional.of(DockerDeadlines.CALL), DockerDeadlines.of("GET", "/containers/abc/logs?stdout=1&tail=20"));
        assertEquals(
                Optional.of(DockerDeadlines.CALL), DockerDeadlines.of("GET", "/containers/abc/stats?stream=false"));
        assertEquals(Optional.empty(), DockerDeadlines.of("GET", "/events?since=1&filters=x"));
        assertEquals(Optional.empty(), DockerDeadlines.of("GET", "/containers/abc/logs?follow=1&stdout=1"));
        assertEquals(Optional.empty(), DockerDeadlines.of("GET", "/containers/abc/stats"));
        assertEquals(Optional.empty(), DockerDeadlines.of("POST", "/containers/abc/wait"));
    }

    @Test
    void callsThatTakeLongHaveADeadlineOfTheirOwn() {
        assertEquals(
                Optional.of(Duration.ofSeconds(5).plus(DockerDeadlines.CALL)),
                DockerDeadlines.of("POST", "/containers/abc/stop?t=5"));
        assertEquals(
                Optional.of(Duration.ofSeconds(10).plus(DockerDeadlines.CALL)),
                DockerDeadlines.of("POST", "/v1.41/containers/abc/stop"));
        assertEquals(Optional.of(DockerDeadlines.ATTACHED), DockerDeadlines.of("POST", "/exec/e1/start"));
        // a link's own attached deadline changes that call's only
        Duration attached = Duration.ofSeconds(3);
        assertEquals(Optional.of(attached), DockerDeadlines.of("POST", "/exec/e1/start", attached));
        assertEquals(
                Optional.of(attached), DockerDeadlines.of("POST", "/v1.41/containers/c1/attach?stream=1", attached));
        assertEquals(Optional.of(DockerDeadlines.CALL), DockerDeadlines.of("GET", "/containers/c1/json", attached));
        assertEquals(Optional.of(DockerDeadlines.LAYER), DockerDeadlines.of("POST", "/containers/create", attached));
        assertEquals(Optional.of(DockerDeadlines.IMAGE), DockerDeadlines.of("POST", "/build?t=envbench%2Fx"));
        assertEquals(Optional.of(DockerDeadlines.IMAGE), DockerDeadlines.of("POST", "/images/load?quiet=1"));
        // a copying storage driver (vfs) copies or deletes the image's whole tree before it answers these
        assertEquals(Optional.of(DockerDeadlines.LAYER), DockerDeadlines.of("POST", "/v1.41/containers/create?name=x"));
        assertEquals(Optional.of(DockerDeadlines.LAYER), DockerDeadlines.of("DELETE", "/containers/abc?force=1&v=1"));
        assertEquals(
                Optional.of(DockerDeadlines.LAYER), DockerDeadlines.of("DELETE", "/images/envbench%2Fbonnie:latest"));
        assertEquals(Optional.of(DockerDeadlines.CALL), DockerDeadlines.of("GET", "/containers/abc/json"));
    }

    @Test
    void streamsAndAttachedCommandsMayFallSilentOrdinaryCallsMayNot() {
        assertTrue(DockerDeadlines.silenceAllowed("POST", "/v1.41/exec/e1/start"));
        assertTrue(DockerDeadlines.silenceAllowed("POST", "/containers/abc/attach?stream=1"));
        assertTrue(DockerDeadlines.silenceAllowed("GET", "/events"));
        assertFalse(DockerDeadlines.silenceAllowed("GET", "/containers/abc/json"));
        assertFalse(DockerDeadlines.silenceAllowed("POST", "/build"));
        assertFalse(DockerDeadlines.silenceAllowed("POST", "/exec/e1/resize?h=1"));
    }
}
