package io.envbench.report;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;

import io.envbench.measure.stats.Comparison;
import net.jcip.annotations.Immutable;

/**
 * One colour per environment, the same in every chart and view: the environment's position in the experiment's order
 * picks a colour of the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies). Yellow, the
 * colour hardest to see on white, comes last; from the ninth environment on the colours repeat. Immutable.
 */
@Immutable
public final class EnvironmentPalette {
    /** Okabe &amp; Ito (2008), "Color Universal Design", in the order environments take them. */
    public static final List<Color> OKABE_ITO = List.of(
            new Color(0x0072B2), // blue
            new Color(0xE69F00), // orange
            new Color(0x009E73), // bluish green
            new Color(0xD55E00), // vermillion
            new Color(0xCC79A7), // reddish purple
            new Color(0x56B4E9), // sky blue
            new Color(0x000000), // black
            new Color(0xF0E442)); // yellow

    private final List<String> environments;

    private EnvironmentPalette(List<String> environments) {
        this.environments = List.copyOf(environments);
    }

    /** @param environmentsInOrder the experiment's environments in its order (e.g. its file's, or {@link Comparison#environments()}) */
    public static EnvironmentPalette of(Iterable<String> environmentsInOrder) {
        List<String> order = new ArrayList<>();
        environmentsInOrder.forEach(order::add);
        return new EnvironmentPalette(order);
    }

    /** In the order the comparison met its environments. */
    public static EnvironmentPalette of(Comparison comparison) {
        return of(comparison.environments());
    }

    /** The environments this palette colours, in order. */
    public List<String> environments() {
        return environments;
    }

    /** @throws IllegalArgumentException for an environment outside this palette's order */
    public Color colour(String environment) {
        int position = environments.indexOf(environment);
        if (position < 0) {
            throw new IllegalArgumentException("environment: '" + environment + "' has no colour; use one of "
                    + environments + " or build the palette from the experiment's environments");
        }
        return OKABE_ITO.get(position % OKABE_ITO.size());
    }
}
