package io.envbench.study.tenants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import io.envbench.study.experiment.TenantPlan;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The JMeter plan of a multi-tenant run, made from a plan of one thread group (such as {@code testplans/daytrader.jmx}):
 * one copy of the thread group per tenant, named {@code tenant-N: ...}, whose per-tenant properties are the tenant's
 * own. In the copies every {@code __P(envbench.X,} of a {@link #PER_TENANT} property X reads {@code envbench.TENANT.X}
 * instead (e.g. {@code envbench.tenant-2.port}); plan-level elements that read such a property (the Environment Tag,
 * the HTTP Request Defaults) move into every copy, the others (assertions, listeners) stay where they apply to all.
 * So one JMeter run loads every tenant at its own rate with its own threads, and each sample's {@code envbench.env}
 * names its tenant.
 */
public final class TenantsPlan {
    /** The properties each tenant has its own of: {@code envbench.TENANT.X}. */
    public static final List<String> PER_TENANT = List.of(
            "host", "port", "threads", "rate.per.minute", "run.environment", "rampup.seconds", "daytrader.first.user");

    private static final Pattern PROPERTY = Pattern.compile("__P\\(envbench\\.("
            + String.join("|", PER_TENANT.stream().map(Pattern::quote).toList()) + "),");

    private TenantsPlan() {}

    /** The name of tenant {@code tenant}'s own copy of property {@code envbench.X}. */
    public static String property(String tenant, String x) {
        return "envbench." + tenant + "." + x;
    }

    /**
     * The {@code -J} properties of a run for each tenant: where it listens, its threads, its rate (requests per minute,
     * 0 = closed loop), its tag.
     */
    public static Map<String, String> properties(TenantPlan tenant, String host, int port) {
        Map<String, String> p = new LinkedHashMap<>();
        String t = tenant.name();
        p.put(property(t, "host"), host);
        p.put(property(t, "port"), Integer.toString(port));
        p.put(property(t, "threads"), Integer.toString(tenant.threads()));
        p.put(property(t, "rate.per.minute"), Double.toString(tenant.requestsPerSecond() * 60));
        p.put(property(t, "run.environment"), t);
        p.put(property(t, "daytrader.first.user"), "0"); // each tenant has its own database: users uid:0.. in each
        return p;
    }

    /**
     * Writes the plan for {@code tenants} made from {@code template} (exactly one {@code ThreadGroup}) to {@code out}.
     *
     * @throws IOException when the template cannot be read or is not such a plan (the message names it)
     */
    public static void write(Path template, List<String> tenants, Path out) throws IOException {
        Document doc = parse(template);
        Element planTree = planBody(doc, template);
        List<Node[]> pairs = pairs(planTree);
        Node[] group = null;
        List<Node[]> perTenantElements = new ArrayList<>();
        for (Node[] pair : pairs) {
            if (pair[0].getNodeName().equals("ThreadGroup")) {
                if (group != null) {
                    throw new IOException(
                            template + ": has more than one ThreadGroup; a multi-tenant plan has exactly one");
                }
                group = pair;
            } else if (PROPERTY.matcher(pair[0].getTextContent()).find()
                    || pair[1] != null
                            && PROPERTY.matcher(pair[1].getTextContent()).find()) {
                perTenantElements.add(pair);
            }
        }
        if (group == null) {
            throw new IOException(template
                    + ": has no ThreadGroup directly under its test plan; a multi-tenant plan has exactly one");
        }
        for (Node[] pair : perTenantElements) {
            planTree.removeChild(pair[0]);
            if (pair[1] != null) {
                planTree.removeChild(pair[1]);
            }
        }
        Node anchor = group[0];
        for (String tenant : tenants) {
            Element copy = (Element) group[0].cloneNode(true);
            copy.setAttribute("testname", tenant + ": " + copy.getAttribute("testname"));
            Node tree = group[1] == null ? doc.createElement("hashTree") : group[1].cloneNode(true);
            Node first = tree.getFirstChild();
            for (Node[] pair : perTenantElements) {
                tree.insertBefore(pair[0].cloneNode(true), first);
                tree.insertBefore(pair[1] == null ? doc.createElement("hashTree") : pair[1].cloneNode(true), first);
            }
            rename(copy, tenant);
            rename(tree, tenant);
            planTree.insertBefore(copy, anchor);
            planTree.insertBefore(tree, anchor);
        }
        planTree.removeChild(group[0]);
        if (group[1] != null) {
            planTree.removeChild(group[1]);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.transform(new DOMSource(doc), new StreamResult(out.toFile()));
        } catch (TransformerException e) {
            throw new IOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    private static Document parse(Path template) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder b = f.newDocumentBuilder();
            return b.parse(template.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(template + ": not a JMeter plan (" + e.getMessage() + ")", e);
        }
    }

    /** The hashTree of the test plan's children: jmeterTestPlan > hashTree > (TestPlan, hashTree). */
    private static Element planBody(Document doc, Path template) throws IOException {
        Element top = firstElement(doc.getDocumentElement(), "hashTree");
        Element plan = top == null ? null : firstElement(top, "TestPlan");
        Node body = plan == null ? null : nextElement(plan);
        if (!(body instanceof Element e) || !e.getNodeName().equals("hashTree")) {
            throw new IOException(template + ": not a JMeter plan (no TestPlan with its hashTree)");
        }
        return e;
    }

    /** Each element of a hashTree with the hashTree that follows it (null when none). */
    private static List<Node[]> pairs(Element tree) {
        List<Node[]> pairs = new ArrayList<>();
        NodeList children = tree.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node n = children.item(i);
            if (n instanceof Element && !n.getNodeName().equals("hashTree")) {
                Node next = nextElement(n);
                pairs.add(new Node[] {n, next != null && next.getNodeName().equals("hashTree") ? next : null});
            }
        }
        return pairs;
    }

    private static Element firstElement(Node parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getNodeName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static Node nextElement(Node n) {
        Node s = n.getNextSibling();
        while (s != null && !(s instanceof Element)) {
            s = s.getNextSibling();
        }
        return s;
    }

    /** Every per-tenant property read in this subtree's text now reads the tenant's own. */
    private static void rename(Node n, String tenant) {
        if (n.getNodeType() == Node.TEXT_NODE || n.getNodeType() == Node.CDATA_SECTION_NODE) {
            Matcher m = PROPERTY.matcher(n.getNodeValue());
            if (m.find()) {
                n.setNodeValue(
                        m.replaceAll(r -> Matcher.quoteReplacement("__P(" + property(tenant, r.group(1)) + ",")));
            }
            return;
        }
        NodeList children = n.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            rename(children.item(i), tenant);
        }
    }
}
