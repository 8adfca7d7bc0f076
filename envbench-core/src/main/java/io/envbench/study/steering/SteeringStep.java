package io.envbench.study.steering;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import net.jcip.annotations.Immutable;

/**
 * What one step of {@link InterruptSteering} did, for the controller's timeline. Immutable.
 *
 * @param step     the step's number, from 0
 * @param cpuOfIrq each IRQ pointed at a CPU in this step, by IRQ number, lowest first
 * @param notes    what could not be done and why (an IRQ the kernel refuses to move, one that is gone, irqbalance)
 */
@Immutable
public record SteeringStep(long step, Map<Integer, Integer> cpuOfIrq, List<String> notes) {
    public SteeringStep {
        cpuOfIrq = Collections.unmodifiableMap(new TreeMap<>(cpuOfIrq));
        notes = List.copyOf(notes);
    }

    /** E.g. {@code IRQ steering step 3: IRQ 38 -> CPU 1, IRQ 39 -> CPU 0}. */
    public String describe() {
        String moved = cpuOfIrq.entrySet().stream()
                .map(e -> "IRQ " + e.getKey() + " -> CPU " + e.getValue())
                .collect(Collectors.joining(", "));
        return "IRQ steering step " + step + ": " + (moved.isEmpty() ? "no IRQ moved" : moved)
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
    }
}
