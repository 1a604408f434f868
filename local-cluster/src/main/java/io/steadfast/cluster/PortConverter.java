package io.steadfast.cluster;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a TCP port option: a whole number from 1 to 65535. */
final class PortConverter implements ITypeConverter<Integer> {

    @Override
    public Integer convert(String value) {
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a TCP port; give a whole number from 1 to 65535");
        }
        if (port < 1 || port > 65535) {
            throw new TypeConversionException(port + " is not a TCP port; give a whole number from 1 to 65535");
        }
        return port;
    }
}
