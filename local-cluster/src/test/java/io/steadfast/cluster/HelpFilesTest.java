package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code steadfast} script prints {@code local-cluster/src/main/help/<command>.txt} for {@code --help}, so that
 * help needs no build; each file must be exactly what the launcher's own {@code --help} prints. After changing a
 * command's options or descriptions, rewrite the files with {@value #REWRITE}.
 */
class HelpFilesTest {

    static final String REWRITE = "mvn -B -pl local-cluster test -Dtest=HelpFilesTest -Dsteadfast.help.write=true";

    @ParameterizedTest(name = "{0}.txt")
    @CsvSource({"steadfast,", "local,local", "kill-host,kill-host"})
    void helpFileIsWhatTheLauncherPrints(String file, String subcommand) throws IOException {
        Path path = RepoLayout.fromWorkingDirectory().root().resolve("local-cluster/src/main/help").resolve(file + ".txt");
        String usage = CommandRun.usage(subcommand);
        if (Boolean.getBoolean("steadfast.help.write")) {
            Files.createDirectories(path.getParent());
            Files.writeString(path, usage);
        }

        assertThat(path).as("%s is missing; write it with %s", path, REWRITE).exists();
        assertThat(Files.readString(path)).as("%s is out of date; rewrite it with %s", path, REWRITE).isEqualTo(usage);
    }
}
