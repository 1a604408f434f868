package io.steadfast.router.scheduling.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A host that never gets past starting: its JVM runs until it is stopped and never registers. {@link #jar} writes a
 * runnable jar of this class, for {@code steadfast.router.scheduling.local.pe-host-jar}.
 */
public final class StandInHost {

    private StandInHost() {
    }

    public static void main(String[] args) throws InterruptedException {
        Thread.currentThread().join();
    }

    /** Writes {@code <dir>/stand-in-host.jar}, whose main class is this one. */
    static Path jar(Path dir) {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, StandInHost.class.getName());
        String entry = StandInHost.class.getName().replace('.', '/') + ".class";
        Path jar = dir.resolve("stand-in-host.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
             InputStream bytes = StandInHost.class.getClassLoader().getResourceAsStream(entry)) {
            if (bytes == null) {
                throw new IllegalStateException(entry + " is not on the test class path");
            }
            out.putNextEntry(new JarEntry(entry));
            bytes.transferTo(out);
            out.closeEntry();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + jar, e);
        }
        return jar;
    }
}
