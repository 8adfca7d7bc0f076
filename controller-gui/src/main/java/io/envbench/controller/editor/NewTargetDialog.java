package io.envbench.controller.editor;

import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.FlowLayout;
import java.awt.GridBagConstraints;
import java.awt.GridBagLayout;
import java.awt.Insets;
import java.awt.Window;
import java.awt.event.KeyEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.swing.BorderFactory;
import javax.swing.ButtonGroup;
import javax.swing.JButton;
import javax.swing.JComponent;
import javax.swing.JDialog;
import javax.swing.JFileChooser;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JRadioButton;
import javax.swing.JTextField;
import javax.swing.KeyStroke;
import javax.swing.SwingConstants;
import javax.swing.SwingUtilities;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.NewTargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.ImageBuilder;
import net.jcip.annotations.NotThreadSafe;

/**
 * "New target": a recipe of one's own from a host command line plus an image or a Dockerfile. Writes
 * {@code targets/NAME/} and, for a Dockerfile, builds its image through the Docker API (off the event thread); when
 * the build fails the recipe is removed again, so a failed attempt leaves nothing.
 */
@NotThreadSafe
final class NewTargetDialog extends JDialog {
    private final Path targets;
    private final Consumer<String> created;
    private final JTextField name =
            field("target.name", "the recipe's folder under targets/: letters, digits, '.', '_' or '-'");
    private final JTextField description = field("target.description", "one line");
    private final JTextField bareCommand =
            field("target.bareCommand", "run from the recipe's folder on the host; empty: no bare metal");
    private final JRadioButton useImage = new JRadioButton("Image", true);
    private final JRadioButton useDockerfile = new JRadioButton("Dockerfile");
    private final JTextField image = field("target.image", "an image the Docker engine has, e.g. my-app:1.2");
    private final JTextField dockerfile =
            field("target.dockerfile", "its folder is the build context, copied into the recipe");
    private final JTextField containerPort =
            field("target.containerPort", "the port the server listens on in the container; 0: none");
    private final JTextField portEnv = field(
            "target.portEnv", "the environment variable that sets the port (bare metal, host network), e.g. PORT");
    private final JTextField readyPath =
            field("target.readyPath", "readiness: this path answers 200; empty: the port accepts a connection");
    private final JLabel status = new JLabel(" ");
    private final JButton create = new JButton("Create");
    private final JButton cancel = new JButton("Cancel");

    NewTargetDialog(Window owner, Path targets, Consumer<String> created) {
        super(owner, "New target", ModalityType.APPLICATION_MODAL);
        this.targets = targets;
        this.created = created;
        setName("target.dialog");
        JPanel form = new JPanel(new GridBagLayout());
        int row = 0;
        row = row(form, row, "Name", name);
        row = row(form, row, "Description", description);
        row = row(form, row, "Host command", bareCommand);
        ButtonGroup g = new ButtonGroup();
        g.add(useImage);
        g.add(useDockerfile);
        useImage.setName("target.useImage");
        useDockerfile.setName("target.useDockerfile");
        JPanel kinds = new JPanel(new FlowLayout(FlowLayout.LEFT, 0, 0));
        kinds.add(useImage);
        kinds.add(useDockerfile);
        row = row(form, row, "Container from", kinds);
        row = row(form, row, "Image", image);
        JPanel df = new JPanel(new BorderLayout(4, 0));
        df.add(dockerfile);
        JButton browse = new JButton("…");
        browse.addActionListener(e -> chooseDockerfile());
        df.add(browse, BorderLayout.EAST);
        row = row(form, row, "Dockerfile", df);
        row = row(form, row, "Container port", containerPort);
        row = row(form, row, "Port variable", portEnv);
        row(form, row, "Readiness path", readyPath);
        containerPort.setText("8080");
        portEnv.setText("PORT");
        readyPath.setText("/");
        useImage.addActionListener(e -> showKind());
        useDockerfile.addActionListener(e -> showKind());
        showKind();
        status.setName("target.status");
        status.setBorder(BorderFactory.createEmptyBorder(4, 8, 4, 8));
        create.setName("target.create");
        create.addActionListener(e -> create());
        cancel.addActionListener(e -> dispose());
        getRootPane()
                .registerKeyboardAction(
                        e -> {
                            if (cancel.isEnabled()) {
                                dispose();
                            }
                        },
                        KeyStroke.getKeyStroke(KeyEvent.VK_ESCAPE, 0),
                        JComponent.WHEN_IN_FOCUSED_WINDOW);
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT));
        buttons.add(create);
        buttons.add(cancel);
        JPanel south = new JPanel(new BorderLayout());
        south.add(status, BorderLayout.NORTH);
        south.add(buttons, BorderLayout.SOUTH);
        add(form);
        add(south, BorderLayout.SOUTH);
        getRootPane().setDefaultButton(create);
        pack();
        setLocationRelativeTo(owner);
    }

    private void showKind() {
        image.setEnabled(useImage.isSelected());
        dockerfile.setEnabled(useDockerfile.isSelected());
    }

    private void chooseDockerfile() {
        JFileChooser c = new JFileChooser();
        if (c.showOpenDialog(this) == JFileChooser.APPROVE_OPTION) {
            dockerfile.setText(c.getSelectedFile().getAbsolutePath());
        }
    }

    private void create() {
        NewTargetRecipe recipe;
        try {
            int port;
            try {
                port = containerPort.getText().isBlank()
                        ? 0
                        : Integer.parseInt(containerPort.getText().strip());
            } catch (NumberFormatException e) {
                throw new InvalidSettingException(
                        "container port",
                        "'" + containerPort.getText() + "' is "
                                + (containerPort.getText().strip().matches("[+-]?\\d+")
                                        ? "not a port"
                                        : "not a whole number")
                                + "; give 1 to 65535, e.g. 8080, or 0 for none");
            }
            Optional<Path> df;
            try {
                df = useDockerfile.isSelected() && !dockerfile.getText().isBlank()
                        ? Optional.of(Path.of(dockerfile.getText().strip())
                                .toAbsolutePath()
                                .normalize())
                        : Optional.empty();
            } catch (InvalidPathException e) {
                throw new InvalidSettingException(
                        "Dockerfile",
                        "'" + dockerfile.getText() + "' is not a path (" + e.getReason()
                                + "); choose the Dockerfile to build");
            }
            if (useDockerfile.isSelected() && df.isEmpty()) {
                throw new InvalidSettingException(
                        "Dockerfile", "is empty; choose the Dockerfile to build, or pick Image");
            }
            if (df.isPresent()) {
                checkContext(df.get().getParent());
            }
            recipe = new NewTargetRecipe(
                    name.getText(),
                    description.getText(),
                    bareCommand.getText(),
                    useImage.isSelected() ? image.getText() : "",
                    df,
                    port,
                    portEnv.getText(),
                    readyPath.getText());
        } catch (InvalidSettingException e) {
            problem(e.getMessage());
            return;
        }
        building(true);
        status.setForeground(getForeground());
        status.setText(
                recipe.dockerfile().isEmpty()
                        ? "writing targets/" + recipe.name()
                        : "writing targets/" + recipe.name() + " and building " + recipe.imageTag()
                                + " through the Docker API…");
        // not a daemon: quitting the controller waits for the build, so a recipe is never left half-made
        Thread work = new Thread(
                () -> {
                    boolean written = false;
                    try {
                        recipe.create(targets);
                        written = true;
                        if (recipe.dockerfile().isPresent()) {
                            ImageBuilder.build(
                                    DockerDaemon.fromEnvironment(),
                                    targets.resolve(recipe.name()),
                                    recipe.imageTag(),
                                    recipe.name());
                        }
                        SwingUtilities.invokeLater(() -> {
                            created.accept(recipe.name());
                            dispose();
                        });
                    } catch (Throwable e) { // whatever failed, nothing half-made stays and the dialog says why
                        if (written) {
                            try {
                                recipe.remove(targets);
                            } catch (IOException removing) {
                                e.addSuppressed(removing);
                            }
                        }
                        String why = e instanceof InvalidSettingException
                                        || e instanceof TargetStartException
                                        || e instanceof IOException
                                ? e.getMessage()
                                : e.toString();
                        boolean wasWritten = written;
                        SwingUtilities.invokeLater(() -> {
                            building(false);
                            problem(why
                                    + (wasWritten ? " (the recipe was removed again; fix it and create it anew)" : ""));
                        });
                    }
                },
                "envbench-new-target");
        work.start();
    }

    /** A build context is the Dockerfile's folder: not one holding EnvBench's recipes, nor one too big to copy. */
    private void checkContext(Path folder) {
        if (targets.toAbsolutePath().normalize().startsWith(folder)
                || folder.startsWith(targets.toAbsolutePath().normalize())) {
            throw new InvalidSettingException(
                    "Dockerfile",
                    "its folder " + folder + " holds or lies in targets/; put the Dockerfile "
                            + "in a folder of its own with just what the image needs");
        }
        try (Stream<Path> files = Files.walk(folder)) {
            if (files.limit(MAX_CONTEXT_FILES + 1).count() > MAX_CONTEXT_FILES) {
                throw new InvalidSettingException(
                        "Dockerfile",
                        "its folder " + folder + " holds more than " + MAX_CONTEXT_FILES
                                + " files, all of which would be copied as the build context; put the Dockerfile in a folder of its own");
            }
        } catch (IOException e) {
            throw new InvalidSettingException("Dockerfile", "cannot read its folder " + folder + ": " + e.getMessage());
        }
    }

    private static final int MAX_CONTEXT_FILES = 2000;

    private void building(boolean on) {
        create.setEnabled(!on);
        cancel.setEnabled(!on);
        setDefaultCloseOperation(on ? DO_NOTHING_ON_CLOSE : DISPOSE_ON_CLOSE);
    }

    private void problem(String message) {
        status.setForeground(new Color(0xB00020));
        status.setText("<html>" + message.replace("&", "&amp;").replace("<", "&lt;") + "</html>");
        pack();
    }

    private static JTextField field(String name, String tip) {
        JTextField t = new JTextField(28);
        t.setName(name);
        t.setToolTipText(tip);
        return t;
    }

    private static int row(JPanel form, int row, String label, JComponent field) {
        JLabel l = new JLabel(label, SwingConstants.RIGHT);
        l.setLabelFor(field);
        GridBagConstraints g = new GridBagConstraints();
        g.gridx = 0;
        g.gridy = row;
        g.anchor = GridBagConstraints.LINE_END;
        g.insets = new Insets(3, 8, 3, 4);
        form.add(l, g);
        GridBagConstraints f = new GridBagConstraints();
        f.gridx = 1;
        f.gridy = row;
        f.weightx = 1;
        f.fill = GridBagConstraints.HORIZONTAL;
        f.insets = new Insets(3, 4, 3, 8);
        form.add(field, f);
        return row + 1;
    }
}
