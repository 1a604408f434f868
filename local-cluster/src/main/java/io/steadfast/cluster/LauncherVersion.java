package io.steadfast.cluster;

import picocli.CommandLine.IVersionProvider;

/** {@code steadfast --version}: the project version the launcher was built from. */
final class LauncherVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"steadfast " + RepoLayout.projectVersion()};
    }
}
