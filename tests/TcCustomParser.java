/*
 * Applies a Trace Compass Custom Text trace definition to text files the
 * way Trace Compass's CustomTxtTrace does (commit 14360afb): the
 * definition is read with the JDK's DOM parser, each line is tried
 * against the root InputLines in order with java.util.regex's
 * Matcher.matches() (the whole line), and the first that matches makes
 * the line an event.  For tests/cli_tracecompass.py; run as
 *     java tests/TcCustomParser.java DEFINITION.xml FILE...
 * It prints one line per event: FILE, line number, the InputLine's
 * index, then NAME=VALUE for each InputData whose group matched (the
 * event type falls back to the InputLine's EventType, as in
 * CustomTxtEvent.processGroups), tab-separated.
 */
import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

public class TcCustomParser {
    static class Input {
        Pattern pattern;
        String eventType;
        List<String[]> data = new ArrayList<>();   /* tag, name */
    }

    public static void main(String[] args) throws Exception {
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new File(args[0])).getDocumentElement();
        if (!root.getNodeName().equals("CustomTxtTraceDefinitionList"))
            throw new IllegalArgumentException("not a CustomTxtTraceDefinitionList");
        Element def = (Element) root.getElementsByTagName("Definition").item(0);
        List<Input> inputs = new ArrayList<>();
        NodeList kids = def.getChildNodes();
        for (int i = 0; i < kids.getLength(); i++) {
            Node n = kids.item(i);
            if (!n.getNodeName().equals("InputLine"))
                continue;
            Input in = new Input();
            NodeList parts = n.getChildNodes();
            for (int j = 0; j < parts.getLength(); j++) {
                Node p = parts.item(j);
                if (p.getNodeName().equals("RegEx"))
                    in.pattern = Pattern.compile(p.getTextContent());
                else if (p.getNodeName().equals("EventType"))
                    in.eventType = p.getTextContent();
                else if (p.getNodeName().equals("InputData")) {
                    Element e = (Element) p;
                    in.data.add(new String[] { e.getAttribute("tag"), e.getAttribute("name") });
                }
            }
            inputs.add(in);
        }
        StringBuilder out = new StringBuilder();
        for (int f = 1; f < args.length; f++) {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(
                    new FileInputStream(args[f]), StandardCharsets.UTF_8))) {
                String line;
                int no = 0;
                while ((line = r.readLine()) != null) {
                    no++;
                    for (int k = 0; k < inputs.size(); k++) {
                        Input in = inputs.get(k);
                        Matcher m = in.pattern.matcher(line);
                        if (!m.matches())
                            continue;
                        out.append(args[f]).append('\t').append(no).append('\t').append(k);
                        boolean typed = false;
                        for (int g = 0; g < in.data.size() && g < m.groupCount(); g++) {
                            String v = m.group(g + 1);
                            if (v == null || v.trim().isEmpty())
                                continue;
                            String[] d = in.data.get(g);
                            String key = d[0].equals("OTHER") ? d[1] : d[0];
                            typed |= key.equals("EVENT_TYPE");
                            out.append('\t').append(key).append('=').append(v.trim());
                        }
                        if (!typed && in.eventType != null)
                            out.append("\tEVENT_TYPE=").append(in.eventType);
                        out.append('\n');
                        break;
                    }
                }
            }
        }
        System.out.print(out);
    }
}
