package io.github.jsonrpcenvelope;

/**
 * A call into the library that failed (out of memory, a caught internal
 * fault, a bad argument): the status and its name, as the library gives it.
 */
public final class EnvelopeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    EnvelopeException(String call, int status) {
        super(call + ": " + statusName(status));
        this.status = status;
    }

    EnvelopeException(String message) {
        super(message);
        this.status = -1;
    }

    /** The library's status value ({@code JsonRpcStatus}), or -1 for a failure without one. */
    public int status() {
        return status;
    }

    static String statusName(int status) {
        String name = Native.nameOf(Native.STATUS_NAME, status);
        return name != null ? name : "status " + Integer.toUnsignedString(status);
    }
}
