#!/bin/sh
# Study 001's web tier: Debian bookworm's nginx in front of the login app, the same script on the host and as the web
# service's container command. It serves the site's static files (public/: the stylesheet and the logo) itself, as
# the study's nginx did, and proxies every other request to $APP_HOST:$APP_PORT (the app service, wherever it is
# placed) over keep-alive connections. A client that sends "Connection: close" (the study's benchmarker opened a
# connection per request) gets its connection closed after the answer: nginx's own behaviour.
# It listens on $LISTEN_ADDRESS (comma-separated; 127.0.0.1 on the host, 0.0.0.0 in its container) port $PORT (8080).
# Its configuration, pid and temp files are in a folder of its own under $STATE_DIR (/var/tmp), removed when it stops.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${PORT:-8080}
listen=${LISTEN_ADDRESS:-127.0.0.1}
app=${APP_HOST:-127.0.0.1}:${APP_PORT:-8081}
base=${STATE_DIR:-/var/tmp}
exec 2>&1
dir=$(mktemp -d "$base/envbench-nginx.XXXXXX")
chmod 755 "$dir"
. "$here/scratch.sh"
listens=$(echo "$listen" | tr ',' '\n' | sed "s/.*/        listen &:$port backlog=4096;/")
cat > "$dir/nginx.conf" <<CONF
# rendered by nginx.sh: the same on the host and in the container
worker_processes auto;
pid $dir/nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    upstream app {
        server $app;
        keepalive 32;
    }
    server {
$listens
        root $here/public;
        location /css/ { }
        location /images/ { }
        location / {
            proxy_pass http://app;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$remote_addr;
        }
    }
}
CONF
nginx -t -p "$dir" -c "$dir/nginx.conf" -q
echo "envbench: nginx on $listen:$port in front of $app"
nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' &
pid=$!
wait "$pid"
