package io.envbench.study.experiment;

import java.util.List;
import java.util.stream.Stream;

import io.envbench.study.experiment.ExperimentFields.Field;
import io.envbench.study.experiment.ExperimentFields.Section;

/**
 * The names of an experiment file's fields, for the reader and the writer; which names each section allows comes from
 * the public catalogue, {@link ExperimentFields}.
 */
final class YamlFields {
    private YamlFields() {}

    static final String NAME = "name";
    static final String DESCRIPTION = "description";
    static final String TARGET = "target";
    static final String PORT = "port";
    static final String READY_TIMEOUT_SECONDS = "readyTimeoutSeconds";
    static final String ENVIRONMENTS = "environments";
    static final String REPETITIONS = "repetitions";
    static final String MIN_REPETITIONS = "minRepetitions";
    static final String MAX_REPETITIONS = "maxRepetitions";
    static final String INTERVAL_WIDTH = "intervalWidth";
    static final String ORDER = "order";
    static final String SEED = "seed";
    static final String BASELINE = "baseline";
    static final String CORRECTION = "correction";
    static final String RESULTS = "results";
    static final String CALIBRATION = "calibration";
    static final String ISOLATION = "isolation";
    static final String ALLOW_GENERATOR_BOUND = "allowGeneratorBound";
    static final String CAPACITY = "capacity";
    static final String SLO = "slo";
    static final String START_RATE = "startRate";
    static final String MAX_RATE = "maxRate";
    static final String STEP_SECONDS = "stepSeconds";
    static final String TRIES = "tries";
    static final String SEARCHES = "searches";
    static final String RATE_LABEL = "rateLabel";
    static final String LOAD = "load";
    static final String CRITERIA = "criteria";
    static final String TENANTS = "tenants";
    static final String CONFIGURATIONS = "configurations";
    static final List<String> TOP = ExperimentFields.names(Section.TOP);

    static final String PLACEMENT = "placement";
    static final String SERVICES = "services";
    static final String DOCKER_DAEMON = "dockerDaemon";
    static final String USERLAND_PROXY = "userlandProxy";
    static final String STORAGE_DRIVER = "storageDriver";
    static final String NETWORK = "network";
    static final String VOLUME = "volume";
    static final String CPUSET = "cpuset";
    static final String CPUS = "cpus";
    static final String CPU_SHARES = "cpuShares";
    static final String MEMORY = "memory";
    static final String SECCOMP = "seccomp";
    /** Where a command load's program runs: inside, host or container ({@link io.envbench.study.experiment.ClientPlace}). */
    static final String CLIENT = "client";
    /** Only for placement: docker. */
    static final List<String> CONTAINER = ExperimentFields.of(Section.ENVIRONMENT).stream()
            .filter(Field::containerOnly)
            .map(Field::name)
            .toList();

    static final List<String> ENVIRONMENT = ExperimentFields.names(Section.ENVIRONMENT);
    /** A service of an environment placed otherwise ({@code services: NAME:}). */
    static final List<String> SERVICE =
            Stream.concat(Stream.of(PLACEMENT), CONTAINER.stream()).toList();

    static final String VOLUME_TYPE = "type";
    static final String VOLUME_SOURCE = "source";
    static final String VOLUME_PATH = "path";
    static final List<String> VOLUME_FIELDS = ExperimentFields.names(Section.VOLUME);

    static final String HTTP = "http";
    static final String PLAN = "plan";
    static final String PROPERTIES = "properties";
    static final String WARMUP_SECONDS = "warmupSeconds";
    static final String DURATION_SECONDS = "durationSeconds";
    static final String ENGINES = "engines";
    static final String RMI_KEYSTORE = "rmiKeystore";
    static final String COMMAND = "command";
    static final List<String> LOAD_FIELDS = ExperimentFields.names(Section.LOAD);

    static final String RUN = "run";
    static final String OUTPUT = "output";
    static final String BARE_MEMORY = "bareMemory";
    static final List<String> COMMAND_FIELDS = ExperimentFields.names(Section.COMMAND);

    static final String PATH = "path";
    static final String THREADS = "threads";
    static final String REQUESTS_PER_SECOND = "requestsPerSecond";
    static final String RAMP_UP_SECONDS = "rampUpSeconds";
    static final List<String> HTTP_FIELDS = ExperimentFields.names(Section.HTTP);

    // a multi-tenant experiment (tenants: and configurations:)
    static final String TENANT_CPUS = "cpus";
    static final String USERS = "users";
    static final String QUOTES = "quotes";
    static final String COUNT = "count";
    static final String HIGH_TENANTS = "highTenants";
    static final String LOW = "low";
    static final String HIGH = "high";
    static final String EACH = "each";
    static final List<String> TENANTS_FIELDS = ExperimentFields.names(Section.TENANTS);
    static final String RESPONSE_TIME_GOAL_MS = "responseTimeGoalMs";
    /** A tenant group's load ({@code low:}, {@code high:}). */
    static final List<String> TENANT_GROUP_FIELDS = ExperimentFields.names(Section.TENANT_GROUP);
    /** A tenant written out ({@code each:}). */
    static final List<String> TENANT_FIELDS = ExperimentFields.names(Section.TENANT);

    static final String CPU_CONTROL = "cpuControl";
    static final String INTERRUPT_STEERING = "interruptSteering";
    static final String CONTROL_INTERVAL_SECONDS = "controlIntervalSeconds";
    static final String FLOATING = "floating";
    static final List<String> CONFIGURATION_FIELDS = ExperimentFields.names(Section.CONFIGURATION);
}
