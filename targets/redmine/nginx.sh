#!/bin/sh
# Study 001's web tier: Debian bookworm's nginx in front of Redmine, the same script on the host and as the web
# service's container command (targets/redmine-three-tier). It proxies every request to $APP_HOST:$APP_PORT (the app
# service, wherever it is placed) over keep-alive connections, and serves Redmine's static files
# (/usr/share/redmine/public: stylesheets, javascripts, images) itself, as the study's nginx served the static files.
# It listens on $LISTEN_ADDRESS (comma-separated; 127.0.0.1 on the host, 0.0.0.0 in its container) port $PORT (8080).
# Its configuration, pid and temp files are in a folder of its own under $STATE_DIR (/var/tmp), removed when it stops.
set -eu
port=${PORT:-8080}
listen=${LISTEN_ADDRESS:-127.0.0.1}
app=${APP_HOST:-127.0.0.1}:${APP_PORT:-3000}
base=${STATE_DIR:-/var/tmp}
exec 2>&1
dir=$(mktemp -d "$base/envbench-nginx.XXXXXX")
chmod 755 "$dir"
. "$(cd "$(dirname "$0")" && pwd)/scratch.sh"
listens=$(echo "$listen" | tr ',' '\n' | sed "s/.*/        listen &:$port;/")
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
    keepalive_requests 100000;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    upstream redmine {
        server $app;
        keepalive 32;
    }
    server {
$listens
        root /usr/share/redmine/public;
        location ~ ^/(stylesheets|javascripts|images|favicon.ico) { try_files \$uri @redmine; }
        location / { try_files /nonexistent @redmine; }
        location @redmine {
            proxy_pass http://redmine;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto \$scheme;
        }
    }
}
CONF
nginx -t -p "$dir" -c "$dir/nginx.conf" -q
echo "envbench: nginx on $listen:$port in front of $app"
nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' &
pid=$!
wait "$pid"
