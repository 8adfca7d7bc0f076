// Study 001's application tier, written for EnvBench in the shape of the ISUCON4 qualifier's (a login site whose every
// login is checked against and recorded in MySQL): JDK's own HTTP server and MariaDB's JDBC driver, nothing else, so
// a request costs well under a millisecond of CPU and the three tiers reach thousands of requests a second on one core.
//
//   GET  /        the login form (HTML rendered here; its stylesheet and image are nginx's static files)
//   POST /login   login=...&password=...: the user's lock (3 failures since its last success) and the client's ban
//                 (10 failures from its address since its last success) are read, the password checked (SHA-256 of
//                 password and salt), the attempt inserted into login_log; 302 to /mypage with a signed session
//                 cookie, or to / with the reason
//   GET  /mypage  the session's user and its previous successful login (read from login_log); 302 to / without one
//   GET  /health  200 "ok" once the database answers (readiness)
//
// The same jar runs on the host and in the container. Environment: PORT (8081), LISTEN_ADDRESS (comma-separated,
// 127.0.0.1), DB_HOST, DB_PORT, DB_NAME, DB_USER, DB_PASSWORD, APP_THREADS (16). A client's "Connection: close" is
// honoured by the JDK server: the study's benchmarker opened a connection per request.
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class LoginApp {
  static final int USER_LOCK_THRESHOLD = 3;
  static final int IP_BAN_THRESHOLD = 10;

  private final String jdbcUrl;
  private final String dbUser;
  private final String dbPassword;
  // one connection per server thread: no pool library, no contention, as a Perl worker held its own
  private final ThreadLocal<Connection> connections = new ThreadLocal<>();
  private final byte[] sessionKey = new byte[32];

  LoginApp(String jdbcUrl, String dbUser, String dbPassword) {
    this.jdbcUrl = jdbcUrl;
    this.dbUser = dbUser;
    this.dbPassword = dbPassword;
    new SecureRandom().nextBytes(sessionKey);
  }

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(env("PORT", "8081"));
    int threads = Integer.parseInt(env("APP_THREADS", "16"));
    String url = "jdbc:mariadb://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "3306") + "/"
        + env("DB_NAME", "isucon") + "?useServerPrepStmts=false&cachePrepStmts=true";
    LoginApp app = new LoginApp(url, env("DB_USER", "isucon"), env("DB_PASSWORD", "envbench"));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<HttpServer> servers = new ArrayList<>();
    for (String address : env("LISTEN_ADDRESS", "127.0.0.1").split(",")) {
      HttpServer server = HttpServer.create(new InetSocketAddress(address.trim(), port), 1024);
      server.createContext("/", app::handle);
      server.setExecutor(pool);
      server.start();
      servers.add(server);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> servers.forEach(s -> s.stop(0))));
    System.out.println("envbench: login app on " + env("LISTEN_ADDRESS", "127.0.0.1") + ":" + port + ", database " + url);
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals("/") && method.equals("GET")) {
        index(exchange);
      } else if (path.equals("/login") && method.equals("POST")) {
        login(exchange);
      } else if (path.equals("/mypage") && method.equals("GET")) {
        mypage(exchange);
      } else if (path.equals("/health")) {
        query("SELECT 1", ps -> null);
        send(exchange, 200, "text/plain", "ok\n");
      } else {
        send(exchange, 404, "text/plain", "not found\n");
      }
    } catch (SQLException e) {
      // a broken connection is dropped so the next request of this thread opens a new one
      closeQuietly();
      send(exchange, 500, "text/plain", "database: " + e.getMessage() + "\n");
    }
  }

  private void index(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String flash = query == null ? "" : form(query).getOrDefault("error", "");
    send(exchange, 200, "text/html; charset=utf-8", page("Login",
        (flash.isEmpty() ? "" : "<p class=\"flash\">" + escape(flash) + "</p>")
            + "<form method=\"post\" action=\"/login\"><input name=\"login\"><input name=\"password\" type=\"password\">"
            + "<button>Login</button></form>"));
  }

  private void login(HttpExchange exchange) throws IOException, SQLException {
    Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    String login = form.getOrDefault("login", "");
    String password = form.getOrDefault("password", "");
    String ip = clientAddress(exchange);
    long[] user = query("SELECT id, password_hash, salt FROM users WHERE login = ?", ps -> {
      ps.setString(1, login);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) return null;
        boolean matches = sha256(password + ":" + rs.getString(3)).equals(rs.getString(2));
        return new long[] {rs.getLong(1), matches ? 1 : 0};
      }
    });
    String error = null;
    if (failuresSinceSuccess("ip = ?", ip) >= IP_BAN_THRESHOLD) {
      error = "You're banned.";
    } else if (user != null && failuresSinceSuccess("user_id = ?", user[0]) >= USER_LOCK_THRESHOLD) {
      error = "This account is locked.";
    } else if (user == null || user[1] == 0) {
      error = "Wrong username or password";
    }
    boolean succeeded = error == null;
    query("INSERT INTO login_log (created_at, user_id, login, ip, succeeded) VALUES (NOW(), ?, ?, ?, ?)", ps -> {
      if (user == null) ps.setNull(1, java.sql.Types.BIGINT); else ps.setLong(1, user[0]);
      ps.setString(2, login);
      ps.setString(3, ip);
      ps.setBoolean(4, succeeded);
      return ps.executeUpdate();
    });
    if (succeeded) {
      exchange.getResponseHeaders().add("Set-Cookie", "session=" + sign(user[0]) + "; Path=/; HttpOnly");
      redirect(exchange, "/mypage");
    } else {
      redirect(exchange, "/?error=" + java.net.URLEncoder.encode(error, StandardCharsets.UTF_8));
    }
  }

  private int failuresSinceSuccess(String who, Object value) throws SQLException {
    String sql = "SELECT COUNT(*) FROM login_log WHERE " + who + " AND succeeded = 0 AND id > "
        + "(SELECT COALESCE(MAX(id), 0) FROM login_log WHERE " + who + " AND succeeded = 1)";
    return query(sql, ps -> {
      ps.setObject(1, value);
      ps.setObject(2, value);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    });
  }

  private void mypage(HttpExchange exchange) throws IOException, SQLException {
    Long userId = session(exchange.getRequestHeaders().getFirst("Cookie"));
    if (userId == null) {
      redirect(exchange, "/?error=" + java.net.URLEncoder.encode("You must be logged in", StandardCharsets.UTF_8));
      return;
    }
    // the login before this one: ISUCON's "last login" panel
    String last = query("SELECT u.login, l.created_at, l.ip FROM login_log l JOIN users u ON u.id = l.user_id "
        + "WHERE l.user_id = ? AND l.succeeded = 1 ORDER BY l.id DESC LIMIT 1 OFFSET 1", ps -> {
          ps.setLong(1, userId);
          try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? escape(rs.getString(1)) + ", last login " + rs.getTimestamp(2) + " from "
                + escape(rs.getString(3)) : "first login";
          }
        });
    send(exchange, 200, "text/html; charset=utf-8", page("My page", "<p id=\"last\">" + last + "</p>"));
  }

  private interface Statement<T> {
    T run(PreparedStatement ps) throws SQLException;
  }

  private <T> T query(String sql, Statement<T> body) throws SQLException {
    Connection connection = connections.get();
    if (connection == null) {
      connection = DriverManager.getConnection(jdbcUrl, dbUser, dbPassword);
      connections.set(connection);
    }
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      return body.run(ps);
    }
  }

  private void closeQuietly() {
    Connection connection = connections.get();
    connections.remove();
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // it is being dropped because it failed
      }
    }
  }

  private static String clientAddress(HttpExchange exchange) {
    // behind nginx the client's address is in X-Forwarded-For, as ISUCON's app read it
    String forwarded = exchange.getRequestHeaders().getFirst("X-Forwarded-For");
    return forwarded != null ? forwarded.split(",")[0].trim() : exchange.getRemoteAddress().getAddress().getHostAddress();
  }

  private String sign(long userId) {
    return userId + "." + hmac(Long.toString(userId));
  }

  private Long session(String cookieHeader) {
    if (cookieHeader == null) return null;
    for (String cookie : cookieHeader.split(";")) {
      String[] kv = cookie.trim().split("=", 2);
      if (kv.length == 2 && kv[0].equals("session")) {
        String[] parts = kv[1].split("\\.", 2);
        if (parts.length == 2 && MessageDigest.isEqual(hmac(parts[0]).getBytes(StandardCharsets.US_ASCII),
            parts[1].getBytes(StandardCharsets.US_ASCII))) {
          return Long.parseLong(parts[0]);
        }
      }
    }
    return null;
  }

  private String hmac(String value) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(sessionKey, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  static String sha256(String value) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private static Map<String, String> form(String body) {
    Map<String, String> fields = new HashMap<>();
    for (String pair : body.split("&")) {
      String[] kv = pair.split("=", 2);
      if (kv.length == 2) {
        fields.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
      }
    }
    return fields;
  }

  private static String page(String title, String body) {
    return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + title + "</title>"
        + "<link rel=\"stylesheet\" href=\"/css/site.css\"></head><body><img src=\"/images/logo.png\" alt=\"\">"
        + "<h1>" + title + "</h1>" + body + "</body></html>";
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  private static void redirect(HttpExchange exchange, String location) throws IOException {
    exchange.getResponseHeaders().add("Location", location);
    exchange.sendResponseHeaders(302, -1);
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
