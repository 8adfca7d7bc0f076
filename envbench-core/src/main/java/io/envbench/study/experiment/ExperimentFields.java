package io.envbench.study.experiment;

import static io.envbench.study.experiment.YamlFields.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.envbench.launch.dockerdaemon.DaemonRequest;
import io.envbench.measure.stats.Correction;

/**
 * The public catalogue of an experiment file's fields: each with its section, name, type, default and what it does, in
 * the order the file lists them. The reader checks a file's fields against it (and suggests the nearest for a typo),
 * the writer writes in its order, the controller's form takes its fields, keys and tooltips from it, and the
 * experiment-file reference is checked against it; a field is added here once.
 */
public final class ExperimentFields {
    private ExperimentFields() {}

    /** Where a field sits in the file. */
    public enum Section {
        TOP(""),
        /** An item of {@code environments:}. */
        ENVIRONMENT("environments[]"),
        VOLUME("environments[].volume"),
        DOCKER_DAEMON("environments[].dockerDaemon"),
        LOAD("load"),
        CAPACITY("capacity"),
        HTTP("load.http"),
        COMMAND("load.command"),
        TENANTS("tenants"),
        /** {@code tenants.low} and {@code tenants.high}. */
        TENANT_GROUP("tenants.low, tenants.high"),
        /** An item of {@code tenants.each:}. */
        TENANT("tenants.each[]"),
        /** An item of {@code configurations:}. */
        CONFIGURATION("configurations[]");

        private final String where;

        Section(String where) {
            this.where = where;
        }

        /** As the reference names it: {@code load.http}, {@code environments[]}; empty for the top level. */
        public String where() {
            return where;
        }
    }

    /** What a field's value is. */
    public enum Type {
        TEXT("text"),
        WHOLE_NUMBER("whole number"),
        NUMBER("number"),
        SECONDS("seconds"),
        SIZE("size with k, m or g"),
        CPUS("CPU list, e.g. 0-1"),
        CHOICE("one of"),
        BOOLEAN("true or false"),
        LIST("list"),
        MAPPING("mapping");

        private final String description;

        Type(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /**
     * One field.
     *
     * @param choices       the values a {@link Type#CHOICE} takes, in the order a form offers them
     * @param defaultText   the value when the field is left out, as a file writes it; empty when there is none (the
     *                      field is required, or leaving it out means "none")
     * @param doc           what the field does, one line (a form's tooltip)
     * @param containerOnly only for {@code placement: docker}: a bare-metal environment with it is refused
     * @param inForm        the controller's form edits it as one text (a mapping it edits field by field is not)
     */
    public record Field(
            Section section,
            String name,
            Type type,
            List<String> choices,
            String defaultText,
            String doc,
            boolean containerOnly,
            boolean inForm) {
        /** The doc with the default, as a tooltip says it. */
        public String tip() {
            return defaultText.isEmpty() ? doc : doc + " (default " + defaultText + ")";
        }
    }

    private static final List<Field> ALL = new ArrayList<>();

    private static void add(Section s, String name, Type type, String defaultText, String doc) {
        ALL.add(new Field(s, name, type, List.of(), defaultText, doc, false, isFormType(type)));
    }

    private static void choice(Section s, String name, List<String> choices, String defaultText, String doc) {
        ALL.add(new Field(s, name, Type.CHOICE, choices, defaultText, doc, false, true));
    }

    private static void container(Section s, String name, Type type, List<String> choices, String doc) {
        ALL.add(new Field(s, name, type, choices, "", doc, true, type != Type.MAPPING));
    }

    private static void notInForm(Section s, String name, Type type, String defaultText, String doc) {
        ALL.add(new Field(s, name, type, List.of(), defaultText, doc, false, false));
    }

    private static boolean isFormType(Type t) {
        return t != Type.LIST && t != Type.MAPPING;
    }

    static {
        Section s = Section.TOP;
        add(s, NAME, Type.TEXT, "", "letters, digits, '.', '_' or '-'; reports and the run directory use it");
        add(s, DESCRIPTION, Type.TEXT, "", "one line for the report");
        add(s, TARGET, Type.TEXT, "", "the recipe under targets/ that every environment runs");
        add(
                s,
                PORT,
                Type.WHOLE_NUMBER,
                Integer.toString(Experiment.DEFAULT_PORT),
                "the port on 127.0.0.1 where load goes; tenant-N listens on port + N - 1");
        add(
                s,
                READY_TIMEOUT_SECONDS,
                Type.SECONDS,
                Long.toString(Experiment.DEFAULT_READY_TIMEOUT.toSeconds()),
                "how long each environment may take to get ready");
        add(s, ENVIRONMENTS, Type.LIST, "", "the environments compared, each started, loaded and stopped alike");
        add(s, TENANTS, Type.MAPPING, "", "a multi-tenant experiment's tenants, all running at once (study 004)");
        add(s, CONFIGURATIONS, Type.LIST, "", "a multi-tenant experiment's compared CPU-control configurations");
        add(
                s,
                REPETITIONS,
                Type.TEXT,
                Integer.toString(Experiment.DEFAULT_REPETITIONS),
                "runs per environment, a whole number (a verdict needs at least 4), or auto: rounds until every 95%"
                        + " interval of a median is within intervalWidth");
        add(
                s,
                MIN_REPETITIONS,
                Type.WHOLE_NUMBER,
                Integer.toString(Repetitions.AUTO_MIN),
                "with repetitions: auto, the rounds always run; at least " + Repetitions.AUTO_MIN
                        + ", the fewest runs with a 95% interval of the median");
        add(
                s,
                MAX_REPETITIONS,
                Type.WHOLE_NUMBER,
                Integer.toString(Repetitions.AUTO_MAX),
                "with repetitions: auto, the rounds at most: it stops there, and the report says the intervals were"
                        + " still wider");
        add(
                s,
                INTERVAL_WIDTH,
                Type.TEXT,
                Repetitions.widthText(Repetitions.AUTO_WIDTH_PCT),
                "with repetitions: auto, the widest 95% interval of a median (throughput and 90% of every label and"
                        + " environment), end to end in % of it, that ends the runs");
        choice(
                s,
                ORDER,
                List.of("interleaved", "randomized"),
                Experiment.DEFAULT_ORDER.yamlName(),
                "interleaved: A B C A B C; randomized: each round shuffled from the seed");
        add(
                s,
                SEED,
                Type.WHOLE_NUMBER,
                Long.toString(Experiment.DEFAULT_SEED),
                "fixes the shuffled order of randomized");
        add(
                s,
                BASELINE,
                Type.TEXT,
                "",
                "the environment the others are compared with; empty: the first (a multi-tenant "
                        + "experiment's: none, else its first configuration)");
        choice(
                s,
                ISOLATION,
                List.of("auto", "cpus", "off"),
                Experiment.DEFAULT_ISOLATION.yamlName(),
                "cpus: JMeter on the lowest quarter of the CPUs, the target and docker-proxy on the rest; auto: so where"
                        + " the experiment and machine allow it; off: all share every CPU");
        add(
                s,
                ALLOW_GENERATOR_BOUND,
                Type.BOOLEAN,
                "false",
                "true: verdicts also where JMeter, not the target, set the pace (saturated on its CPUs); false: those get"
                        + " none, and the report says why");
        choice(
                s,
                CALIBRATION,
                List.of("none", "aa"),
                Experiment.DEFAULT_CALIBRATION.yamlName(),
                "aa: the baseline also runs against itself, as BASELINE-aa right after it in every round, so the report"
                        + " shows what chance alone gives here");
        choice(
                s,
                CORRECTION,
                Arrays.stream(Correction.values()).map(Correction::word).toList(),
                Experiment.DEFAULT_CORRECTION.word(),
                "how the p-values of all verdicts of a report are adjusted together: bh (Benjamini-Hochberg, "
                        + "false discovery rate) or holm (Holm step-down, family-wise error)");
        choice(
                s,
                RESULTS,
                List.of("full", "compact"),
                Experiment.DEFAULT_RESULTS.yamlName(),
                "each run's JTL, gzip-compressed once the run has ended: full keeps every column JMeter wrote; compact"
                        + " only those the report reads (a quarter to a half smaller again)");
        notInForm(
                s,
                CAPACITY,
                Type.MAPPING,
                "",
                "how ./envbench capacity searches the highest fixed rate an environment keeps: slo:, startRate:,"
                        + " maxRate:, stepSeconds:, warmupSeconds:");
        add(s, LOAD, Type.MAPPING, "", "the load: http: (built in), plan: (a JMeter plan) or command: (a program)");
        ALL.add(new Field(
                s,
                CRITERIA,
                Type.LIST,
                List.of(),
                "",
                "pass/fail checks, one per line, e.g. p90(docker-host) <= 1.2 * p90(bare); in a "
                        + "multi-tenant experiment a tenant under a configuration, e.g. p90(dynamic/tenant-1) <= p90(none/tenant-1)",
                false,
                true));

        s = Section.ENVIRONMENT;
        add(s, NAME, Type.TEXT, "", "used by criteria and reports");
        choice(
                s,
                PLACEMENT,
                List.of("bare", "docker", "podman"),
                "",
                "bare: a host process; docker: a Docker container; podman: a Podman container (rootful, through its"
                        + " Docker-compatible API)");
        add(s, TARGET, Type.TEXT, "", "empty: the experiment's target");
        choice(
                s,
                CLIENT,
                List.of("", "inside", "host", "container"),
                "inside",
                "where a command load's program runs: "
                        + "inside the container (empty), on the host against the published port, or in a second container on a "
                        + "network of its own");
        container(
                s,
                NETWORK,
                Type.CHOICE,
                List.of("", "bridge", "host"),
                "bridge: port published on 127.0.0.1 through docker-proxy; host: the host's network");
        container(
                s,
                VOLUME,
                Type.MAPPING,
                List.of(),
                "where the container keeps the path: its own layer (none), a host "
                        + "folder (bind), a named volume, or memory (tmpfs)");
        container(s, CPUSET, Type.CPUS, List.of(), "CPUs the container may use, e.g. 0 or 0-1; empty: all");
        container(s, CPUS, Type.NUMBER, List.of(), "a CPU quota in cores, e.g. 1.5; empty: none");
        container(
                s, CPU_SHARES, Type.WHOLE_NUMBER, List.of(), "relative CPU weight, 2 to 262144; empty: Docker's 1024");
        container(s, MEMORY, Type.SIZE, List.of(), "a memory limit with k, m or g, e.g. 512m; empty: none");
        container(
                s,
                SECCOMP,
                Type.CHOICE,
                List.of("", "default", "unconfined"),
                "unconfined: Docker's seccomp filter off (--security-opt seccomp=unconfined), to measure what filtering"
                        + " every system call costs; empty or default: the engine's own profile");
        ALL.add(new Field(
                s,
                SERVICES,
                Type.MAPPING,
                List.of(),
                "",
                "a target of several services: those placed "
                        + "otherwise than this environment, as YAML, e.g. { web: { placement: docker, network: bridge } }; empty: all "
                        + "where the environment is",
                false,
                true));
        notInForm(s, DOCKER_DAEMON, Type.MAPPING, "", "the Docker daemon's settings this environment's runs need");

        s = Section.VOLUME;
        ALL.add(new Field(
                s,
                VOLUME_TYPE,
                Type.CHOICE,
                List.of("none", "bind", "named", "tmpfs"),
                "none",
                "where the container keeps the path: its own layer (none), a host folder (bind), a named volume, or "
                        + "memory (tmpfs)",
                true,
                true));
        ALL.add(new Field(
                s,
                VOLUME_SOURCE,
                Type.TEXT,
                List.of(),
                "",
                "bind: a host folder, relative to the experiment file; named: the volume's name",
                true,
                true));
        ALL.add(new Field(
                s, VOLUME_PATH, Type.TEXT, List.of(), "", "the path in the container, e.g. /srv/site", true, true));

        s = Section.DOCKER_DAEMON;
        choice(
                s,
                USERLAND_PROXY,
                List.of("", "true", "false"),
                "",
                "false: this environment's runs restart the Docker "
                        + "daemon with userland-proxy=false (published ports through iptables NAT, no docker-proxy; the run asks "
                        + "first); empty: the daemon as it is");
        choice(
                s,
                STORAGE_DRIVER,
                Stream.concat(Stream.of(""), DaemonRequest.STORAGE_DRIVERS.stream())
                        .toList(),
                "",
                "vfs (or another driver this host's kernel carries): this environment's runs restart the Docker daemon"
                        + " with that storage driver, its images copied into it for the experiment and removed after (the"
                        + " run asks first); empty: the daemon's own");

        s = Section.LOAD;
        notInForm(s, HTTP, Type.MAPPING, "", "the built-in HTTP load");
        add(s, PLAN, Type.TEXT, "", "a JMeter plan, relative to the experiment file; it must not start environments");
        notInForm(s, COMMAND, Type.MAPPING, "", "a program run once per run in each environment's place (bonnie++)");
        ALL.add(new Field(
                s,
                PROPERTIES,
                Type.MAPPING,
                List.of(),
                "",
                "passed to the plan as -Jname=value, one name=value per line",
                false,
                true));
        add(
                s,
                WARMUP_SECONDS,
                Type.SECONDS,
                "0",
                "samples in the first seconds of each run are left out of the figures");
        add(s, DURATION_SECONDS, Type.SECONDS, "", "each run's length, warm-up included");
        notInForm(s, ENGINES, Type.LIST, "", "remote JMeter engines (HOST:PORT) that make the load together");
        notInForm(s, RMI_KEYSTORE, Type.TEXT, "", "the RMI keystore the remote engines use, relative to the file");

        s = Section.CAPACITY;
        notInForm(
                s,
                SLO,
                Type.LIST,
                "errorPct < 1",
                "objectives every step must keep, FIGURE OP NUMBER (ms for latency, % for errors), e.g. p90 <= 200;"
                        + " the achieved rate must also be within 2% of the rate asked (wider for a short, slow step: arrivals are random)");
        notInForm(s, START_RATE, Type.NUMBER, "100", "the first step's requests per second; each next one doubles");
        notInForm(s, MAX_RATE, Type.NUMBER, "50000", "where the search stops doubling");
        notInForm(s, STEP_SECONDS, Type.SECONDS, "15", "each step's JMeter run, warm-up included");
        notInForm(s, WARMUP_SECONDS, Type.SECONDS, "5", "left out at each step's start");
        notInForm(
                s,
                TRIES,
                Type.WHOLE_NUMBER,
                "3",
                "how often each end of the knee's interval is tried (the highest rate that held and the lowest that did"
                        + " not), a majority deciding: an end most of its tries contradict moves outward; 1 = the"
                        + " bisection's own step only");
        notInForm(
                s,
                SEARCHES,
                Type.WHOLE_NUMBER,
                "1",
                "how often the whole search is made, one after another, 1 to 5: with two or more the capacity is their"
                        + " median and comes with the range another search is expected in, from their spread");
        notInForm(
                s,
                RATE_LABEL,
                Type.TEXT,
                "",
                "with a plan load: the label whose samples are the rate (the request its timer paces, e.g. a plan's"
                        + " first request of an iteration); empty: every sample counts");

        s = Section.HTTP;
        add(s, PATH, Type.TEXT, "/", "the path to GET, e.g. /page-4k.html");
        add(s, THREADS, Type.WHOLE_NUMBER, "", "concurrent users, at least 1");
        add(
                s,
                REQUESTS_PER_SECOND,
                Type.NUMBER,
                "0",
                "for all threads together, or a share of a measured capacity such as 80% of capacity(bare) (searched"
                        + " before the runs); 0: as fast as the target answers (saturation)");
        add(s, RAMP_UP_SECONDS, Type.SECONDS, "0", "time to start all threads");
        notInForm(s, WARMUP_SECONDS, Type.SECONDS, "0", "as load.warmupSeconds, for the built-in load");
        notInForm(s, DURATION_SECONDS, Type.SECONDS, "", "as load.durationSeconds, for the built-in load");

        s = Section.COMMAND;
        add(
                s,
                RUN,
                Type.TEXT,
                "",
                "the program and its arguments, run in each environment's place, e.g. "
                        + "./bonnie.sh -s 2048 -r 1024 -n 16 -f");
        choice(
                s,
                OUTPUT,
                Arrays.stream(CommandOutput.values())
                        .map(CommandOutput::yamlName)
                        .toList(),
                "",
                "how the program's output is read");
        add(
                s,
                BARE_MEMORY,
                Type.SIZE,
                "",
                "the memory cgroup of a bare-metal run, e.g. 1g, as a container's memory limit "
                        + "(page cache included); empty: none");
        notInForm(s, DURATION_SECONDS, Type.SECONDS, "", "how long the program may take");

        s = Section.TENANTS;
        add(
                s,
                TENANT_CPUS,
                Type.WHOLE_NUMBER,
                "",
                "how many CPUs the tenants share (CPUs 0 to cpus-1); empty: all of " + "this host's");
        add(
                s,
                USERS,
                Type.WHOLE_NUMBER,
                Integer.toString(Tenancy.DEFAULT_USERS),
                "users of each tenant's database; each thread logs in as its own");
        add(s, QUOTES, Type.WHOLE_NUMBER, Integer.toString(Tenancy.DEFAULT_QUOTES), "quotes of each tenant's database");
        add(s, COUNT, Type.WHOLE_NUMBER, "", "the number of tenants: tenant-1 .. tenant-N");
        add(
                s,
                HIGH_TENANTS,
                Type.WHOLE_NUMBER,
                "0",
                "how many run high, the last ones: 0 scenario 1, 1 scenario 2, " + "2 scenario 3");
        notInForm(s, LOW, Type.MAPPING, "", "each low tenant's load");
        notInForm(s, HIGH, Type.MAPPING, "", "each high tenant's load");
        notInForm(s, EACH, Type.LIST, "", "every tenant written out, each with its own load, cpuset and goal");
        choice(
                s,
                NETWORK,
                List.of("", "bridge", "host"),
                "bridge",
                "every tenant's network: bridge (port published on 127.0.0.1) or host");
        add(s, MEMORY, Type.SIZE, "", "every tenant's memory limit, e.g. 512m; empty: none");

        s = Section.TENANT_GROUP;
        add(s, THREADS, Type.WHOLE_NUMBER, "", "each tenant's JMeter threads in the group");
        add(s, REQUESTS_PER_SECOND, Type.NUMBER, "", "each tenant's target rate in the group; 0: closed loop");
        add(
                s,
                RESPONSE_TIME_GOAL_MS,
                Type.WHOLE_NUMBER,
                "",
                "a goal for the 90% line the dynamic control acts on; " + "empty: none");

        s = Section.TENANT;
        add(s, NAME, Type.TEXT, "", "the tenant's name; empty: tenant-N");
        add(s, THREADS, Type.WHOLE_NUMBER, "", "its JMeter threads");
        add(s, REQUESTS_PER_SECOND, Type.NUMBER, "", "its target rate, for all its threads together");
        add(s, RESPONSE_TIME_GOAL_MS, Type.WHOLE_NUMBER, "", "a goal for its 90% line; empty: none");
        choice(s, HIGH, List.of("", "true", "false"), "false", "whether it is a high tenant");
        add(s, CPUSET, Type.CPUS, "", "CPUs it may use; empty: the shared ones");
        choice(s, NETWORK, List.of("", "bridge", "host"), "", "its network; empty: the tenants' network");
        add(s, MEMORY, Type.SIZE, "", "its memory limit; empty: the tenants' memory");

        s = Section.CONFIGURATION;
        add(s, NAME, Type.TEXT, "", "the configuration's name, used by criteria and reports");
        choice(
                s,
                CPU_CONTROL,
                List.of("none", "static", "dynamic"),
                "none",
                "none (every tenant floats), static (low "
                        + "tenants pinned), dynamic (a loop releases the pins a tenant over its goal needs)");
        choice(
                s,
                INTERRUPT_STEERING,
                List.of("off", "on"),
                "off",
                "on: the network interrupts steered to the high " + "tenants' CPUs (root only)");
        add(
                s,
                CONTROL_INTERVAL_SECONDS,
                Type.SECONDS,
                Long.toString(TenantConfiguration.DEFAULT_CONTROL_INTERVAL.toSeconds()),
                "how often the dynamic control reads and acts (only with cpuControl: dynamic)");
        add(
                s,
                HIGH_TENANTS,
                Type.WHOLE_NUMBER,
                "",
                "the scenario under this configuration: how many tenants run high, the last ones (0 scenario 1, 1"
                        + " scenario 2, 2 scenario 3); empty: the tenants' own. Lets one file interleave the scenarios");
        choice(
                s,
                FLOATING,
                List.of("", "unpinned", "all", "spare"),
                "",
                "where the tenants a static or dynamic control does not pin run: unpinned (the CPUs no tenant is pinned"
                        + " to; empty means this), all (every CPU), spare (every CPU at the lowest weight: pinned"
                        + " tenants' CPUs lend only their idle time)");
    }

    /** Every field, section by section, in the file's order. */
    public static List<Field> all() {
        return List.copyOf(ALL);
    }

    /** The fields of one section, in the file's order. */
    public static List<Field> of(Section s) {
        return ALL.stream().filter(f -> f.section() == s).toList();
    }

    /** The names of one section's fields, in the file's order: what the reader allows there. */
    public static List<String> names(Section s) {
        return of(s).stream().map(Field::name).toList();
    }

    /** The field of a section by name. */
    public static Optional<Field> field(Section s, String name) {
        return ALL.stream()
                .filter(f -> f.section() == s && f.name().equals(name))
                .findFirst();
    }

    /**
     * A field as a form edits it: by its key, its path below the section's item ({@code load.http.threads},
     * {@code volume.type}, {@code tenants.low.threads}).
     */
    public record FormField(String key, Field field) {}

    /**
     * The fields a form edits in {@code s}, each a text, in the file's order: a mapping the form edits field by field
     * ({@code load:}, {@code load.http:}, {@code volume:}, {@code tenants.low:}) is replaced by its fields, keyed by
     * its path; lists and mappings edited elsewhere are left out.
     */
    public static List<FormField> formFields(Section s) {
        List<FormField> out = new ArrayList<>();
        addFormFields(s, "", out);
        return out;
    }

    /** The keys of {@link #formFields}. */
    public static List<String> formKeys(Section s) {
        return formFields(s).stream().map(FormField::key).toList();
    }

    /** The form's field of {@code s} with {@code key}, e.g. for its tooltip. */
    public static Optional<Field> formField(Section s, String key) {
        return formFields(s).stream()
                .filter(f -> f.key().equals(key))
                .map(FormField::field)
                .findFirst();
    }

    private static void addFormFields(Section s, String prefix, List<FormField> out) {
        for (Field f : of(s)) {
            Optional<Section> below = below(f);
            if (below.isPresent()) {
                addFormFields(below.get(), prefix + f.name() + ".", out);
            } else if (f.inForm()) {
                out.add(new FormField(prefix + f.name(), f));
            }
        }
    }

    /** The section whose fields a mapping field holds, when a form edits them one by one. */
    private static Optional<Section> below(Field f) {
        return switch (f.section()) {
            case TOP -> f.name().equals(LOAD) ? Optional.of(Section.LOAD) : Optional.empty();
            case ENVIRONMENT ->
                f.name().equals(VOLUME)
                        ? Optional.of(Section.VOLUME)
                        : f.name().equals(DOCKER_DAEMON) ? Optional.of(Section.DOCKER_DAEMON) : Optional.empty();
            case LOAD ->
                f.name().equals(HTTP)
                        ? Optional.of(Section.HTTP)
                        : f.name().equals(COMMAND) ? Optional.of(Section.COMMAND) : Optional.empty();
            case TENANTS ->
                f.name().equals(LOW) || f.name().equals(HIGH) ? Optional.of(Section.TENANT_GROUP) : Optional.empty();
            default -> Optional.empty();
        };
    }
}
