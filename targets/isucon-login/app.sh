#!/bin/sh
# Study 001's application tier: LoginApp (app/LoginApp.java, compiled by assemble.sh into dist/) on Java 17, the same
# jar and driver on the host and as the app service's container command. It listens on $LISTEN_ADDRESS
# (comma-separated) port $PORT and reads the db service at $DB_HOST:$DB_PORT; $APP_THREADS server threads (16), each
# with its own database connection. A small fixed heap: it keeps nothing but one connection per thread.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec 2>&1
[ -r "$here/dist/login-app.jar" ] || { echo "app.sh: no $here/dist/login-app.jar; ./envbench setup isucon-login makes it"; exit 2; }
# TCP_NODELAY: the JDK server writes a page's headers and body separately; with Nagle's algorithm the body waits for
# the ACK of the headers, which nginx delays by 40 ms, so every page would take 40 ms and throughput would measure that
exec java -Xms64m -Xmx64m -XX:+UseSerialGC -Dsun.net.httpserver.nodelay=true -cp "$here/dist/login-app.jar:$here/dist/mariadb-java-client.jar" LoginApp
