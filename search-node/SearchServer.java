import java.util.concurrent.CountDownLatch;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * One-JVM OpenSearch node for tests and the demo. Run in source-file mode:
 *   java -cp 'lib/*' SearchServer.java HTTP_PORT TRANSPORT_PORT BASE_DIR
 * The runner's own main leaves the ingest role out; pipelines and ingest tests need it.
 */
public class SearchServer {
  public static void main(String[] args) throws Exception {
    final String httpPort = args[0];
    final String transportPort = args[1];
    final String baseDir = args[2];
    final OpenSearchRunner runner = new OpenSearchRunner();
    runner.setMaxHttpPort(-1); // never drift to another port: the script owns the choice
    runner.onBuild((index, settings) -> {
      settings.put("http.port", httpPort);
      settings.put("transport.port", transportPort);
      settings.put("network.host", "127.0.0.1");
      settings.put("discovery.type", "single-node");
      settings.putList("node.roles", "cluster_manager", "data", "ingest");
      settings.put("action.auto_create_index", "true");
      settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
    });
    runner.build(OpenSearchRunner.newConfigs().basePath(baseDir).numOfNode(1).clusterName("freshet"));
    final CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try { runner.close(); } catch (Exception e) { e.printStackTrace(); }
      stopped.countDown();
    }));
    System.out.println("freshet search node ready on 127.0.0.1:" + httpPort);
    stopped.await();
  }
}
