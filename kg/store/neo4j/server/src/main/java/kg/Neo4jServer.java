package kg;

import java.nio.file.Path;
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
 * stopped (SIGTERM), then shuts the DBMS down cleanly. Authentication is off: the server only
 * listens on 127.0.0.1.
 */
public final class Neo4jServer {
    private Neo4jServer() {}

    public static void main(String[] args) throws InterruptedException {
        int port = 7687;
        Path data = Path.of("neo4j-data");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown argument: " + args[i]);
                    System.exit(2);
                }
            }
        }
        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(data.toAbsolutePath())
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, false)
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
}
