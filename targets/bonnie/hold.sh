#!/bin/sh
# Holds a place open for a command load: prints "ready", then waits until it is stopped (SIGTERM ends it at
# once, also as a container's PID 1, which ignores signals it has no handler for).
trap 'exit 0' TERM INT
echo ready
while :; do sleep 1 & wait $!; done
