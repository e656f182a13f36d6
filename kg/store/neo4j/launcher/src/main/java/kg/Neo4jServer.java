package kg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;

/**
 * A Neo4j Community DBMS with the Bolt connector on loopback, for development and CI.
 *
 * <p>Usage: {@code java kg.Neo4jServer --port 7687 --data DIR}. Blocks until the process is
 * stopped (SIGTERM), then shuts the DBMS down cleanly. Authentication is on: user {@code neo4j}
 * with the password kg generated into the data folder.
 *
 * <p>{@code java kg.Neo4jServer --data DIR --set-password-file FILE} sets that password and exits.
 * It runs with Bolt off, so no client can log in with the default password before it is set.
 */
public final class Neo4jServer {
    private Neo4jServer() {}

    public static void main(String[] args) throws InterruptedException {
        int port = 7687;
        Path data = Path.of("neo4j-data");
        Path passwordFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                case "--set-password-file" -> passwordFile = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown argument: " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (passwordFile != null) {
            setPassword(data, passwordFile);
            return;
        }
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(data.toAbsolutePath())
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dbms.shutdown();
            stopped.countDown();
        }));
        System.out.println("kg-neo4j ready bolt://127.0.0.1:" + port);
        System.out.flush();
        stopped.await();
    }

    private static void setPassword(Path data, Path passwordFile) {
        String password;
        try {
            password = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            System.err.println("cannot read " + passwordFile + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(data.toAbsolutePath())
                .setConfig(BoltConnector.enabled, false)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .build();
        try {
            dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } finally {
            dbms.shutdown();
        }
        System.out.println("kg-neo4j password set");
    }
}
