package io.github.jsonrpcenvelope;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The C ABI of include/jsonrpc_envelope.h, by hand in the shape jextract
 * gives: one layout per struct (mirroring the header exactly; a test checks
 * every size and offset against the C compiler), one downcall handle per
 * function, all made once when the class loads.
 */
final class Native {
    private Native() {}

    /** The ABI version this binding is written for (JSONRPC_ABI_VERSION). */
    static final int ABI_VERSION = 3;

    /** The environment variable and system property naming a library to load instead of the jar's. */
    static final String LIB_ENV = "JSONRPC_ENVELOPE_LIB";
    static final String LIB_PROPERTY = "jsonrpc.envelope.lib";
    /** Where the jar carries the library. */
    static final String RESOURCE = "/native/linux-x86_64/libjsonrpc_envelope.so";

    static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT;
    static final ValueLayout.OfBoolean BOOL = ValueLayout.JAVA_BOOLEAN;
    static final AddressLayout PTR = ValueLayout.ADDRESS;

    static final StructLayout SPAN = MemoryLayout.structLayout(
            SIZE_T.withName("offset"), SIZE_T.withName("len")).withName("JsonRpcSpan");
    static final StructLayout STR = MemoryLayout.structLayout(
            PTR.withName("ptr"), SIZE_T.withName("len")).withName("JsonRpcStr");
    static final StructLayout STRING = MemoryLayout.structLayout(
            PTR.withName("ptr"), SIZE_T.withName("len")).withName("JsonRpcString");
    static final StructLayout CLASSIFICATION = MemoryLayout.structLayout(
            U32.withName("kind"),
            U32.withName("id_kind"),
            BOOL.withName("jsonrpc_2_0"),
            BOOL.withName("has_result"),
            BOOL.withName("has_error"),
            BOOL.withName("names_no_request"),
            MemoryLayout.paddingLayout(4),
            SPAN.withName("id_span"),
            SPAN.withName("method_span"),
            SPAN.withName("params_span"),
            SPAN.withName("result_span"),
            SPAN.withName("error_span"),
            STR.withName("id"),
            STR.withName("method"),
            STR.withName("reason"),
            STR.withName("reply_server"),
            STR.withName("reply_client"),
            STR.withName("substitute"),
            PTR.withName("storage")).withName("JsonRpcClassification");
    static final StructLayout LINE = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("number"),
            SIZE_T.withName("offset"),
            SIZE_T.withName("len"),
            CLASSIFICATION.withName("classification"),
            U32.withName("action"),
            MemoryLayout.paddingLayout(4),
            STR.withName("action_text"),
            PTR.withName("note")).withName("JsonRpcLine");
    static final StructLayout BATCH = MemoryLayout.structLayout(
            PTR.withName("items"),
            SIZE_T.withName("count"),
            PTR.withName("bytes"),
            SIZE_T.withName("bytes_len"),
            PTR.withName("texts"),
            SIZE_T.withName("texts_len")).withName("JsonRpcBatch");
    static final StructLayout REPLY = MemoryLayout.structLayout(
            U32.withName("status"),
            MemoryLayout.paddingLayout(4),
            STRING.withName("text")).withName("JsonRpcReply");
    static final StructLayout DECISION = MemoryLayout.structLayout(
            U32.withName("action"),
            MemoryLayout.paddingLayout(4),
            STRING.withName("text"),
            PTR.withName("note")).withName("JsonRpcDecision");

    static long offset(StructLayout layout, String... path) {
        PathElement[] elements = new PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            elements[i] = PathElement.groupElement(path[i]);
        }
        return layout.byteOffset(elements);
    }

    // Offsets used on every call, computed from the layouts once.
    static final long C_KIND = offset(CLASSIFICATION, "kind");
    static final long C_ID_KIND = offset(CLASSIFICATION, "id_kind");
    static final long C_JSONRPC_2_0 = offset(CLASSIFICATION, "jsonrpc_2_0");
    static final long C_HAS_RESULT = offset(CLASSIFICATION, "has_result");
    static final long C_HAS_ERROR = offset(CLASSIFICATION, "has_error");
    static final long C_NAMES_NO_REQUEST = offset(CLASSIFICATION, "names_no_request");
    static final long C_ID_SPAN = offset(CLASSIFICATION, "id_span");
    static final long C_METHOD_SPAN = offset(CLASSIFICATION, "method_span");
    static final long C_PARAMS_SPAN = offset(CLASSIFICATION, "params_span");
    static final long C_RESULT_SPAN = offset(CLASSIFICATION, "result_span");
    static final long C_ERROR_SPAN = offset(CLASSIFICATION, "error_span");
    static final long C_ID = offset(CLASSIFICATION, "id");
    static final long C_METHOD = offset(CLASSIFICATION, "method");
    static final long C_REASON = offset(CLASSIFICATION, "reason");
    static final long C_REPLY_SERVER = offset(CLASSIFICATION, "reply_server");
    static final long C_REPLY_CLIENT = offset(CLASSIFICATION, "reply_client");
    static final long C_SUBSTITUTE = offset(CLASSIFICATION, "substitute");
    static final long L_NUMBER = offset(LINE, "number");
    static final long L_OFFSET = offset(LINE, "offset");
    static final long L_LEN = offset(LINE, "len");
    static final long L_CLASSIFICATION = offset(LINE, "classification");
    static final long L_ACTION = offset(LINE, "action");
    static final long L_ACTION_TEXT = offset(LINE, "action_text");
    static final long L_NOTE = offset(LINE, "note");
    static final long B_ITEMS = offset(BATCH, "items");
    static final long B_COUNT = offset(BATCH, "count");
    static final long B_BYTES = offset(BATCH, "bytes");
    static final long B_BYTES_LEN = offset(BATCH, "bytes_len");
    static final long B_TEXTS = offset(BATCH, "texts");
    static final long B_TEXTS_LEN = offset(BATCH, "texts_len");
    static final long R_STATUS = offset(REPLY, "status");
    static final long R_TEXT = offset(REPLY, "text");
    static final long D_ACTION = offset(DECISION, "action");
    static final long D_TEXT = offset(DECISION, "text");
    static final long D_NOTE = offset(DECISION, "note");

    /** Where the library was loaded from (a path, for messages and tests). */
    static final Path LIBRARY_PATH;

    static final MethodHandle ABI_VERSION_FN;
    static final MethodHandle VERSION;
    static final MethodHandle CLASSIFY_INTO;
    static final MethodHandle CLASSIFICATION_FREE;
    static final MethodHandle INVALID_REPLY;
    static final MethodHandle LOG_VALUE;
    static final MethodHandle STRING_FREE;
    static final MethodHandle KIND_NAME;
    static final MethodHandle KIND_IS_MESSAGE;
    static final MethodHandle ID_KIND_NAME;
    static final MethodHandle ROLE_NAME;
    static final MethodHandle STATUS_NAME;
    static final MethodHandle PROFILE_NAME;
    static final MethodHandle ACTION_NAME;
    static final MethodHandle DEFAULT_MAX_LINE;
    static final MethodHandle PROFILE_MAX_LINE;
    static final MethodHandle READER_NEW;
    static final MethodHandle READER_FEED;
    static final MethodHandle READER_END;
    static final MethodHandle READER_FREE;
    static final MethodHandle SESSION_NEW;
    static final MethodHandle SESSION_FEED;
    static final MethodHandle SESSION_END;
    static final MethodHandle SESSION_SENT;
    static final MethodHandle SESSION_REFUSED;
    static final MethodHandle SESSION_OUTSTANDING;
    static final MethodHandle SESSION_FREE;
    static final MethodHandle DIRECTION_NAME;
    static final MethodHandle DIRECTION_READ_BY;
    static final MethodHandle ACTION_GOES;
    static final MethodHandle RELAY_NEW;
    static final MethodHandle RELAY_FEED;
    static final MethodHandle RELAY_END;
    static final MethodHandle RELAY_WROTE;
    static final MethodHandle RELAY_REFUSED;
    static final MethodHandle RELAY_OUTSTANDING;
    static final MethodHandle RELAY_FREE;

    static {
        LIBRARY_PATH = locate();
        // The library lives as long as the class loader: a global arena.
        SymbolLookup lib = SymbolLookup.libraryLookup(LIBRARY_PATH, Arena.global());
        Linker linker = Linker.nativeLinker();
        ABI_VERSION_FN = handle(linker, lib, "jsonrpc_abi_version", FunctionDescriptor.of(U32));
        int abi;
        try {
            abi = (int) ABI_VERSION_FN.invokeExact();
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
        if (abi != ABI_VERSION) {
            throw new UnsatisfiedLinkError(LIBRARY_PATH + " has ABI version " + abi
                    + "; this binding needs ABI version " + ABI_VERSION);
        }
        VERSION = handle(linker, lib, "jsonrpc_version", FunctionDescriptor.of(PTR));
        // The line is read during the call only: a heap array may be passed as is.
        CLASSIFY_INTO = linker.downcallHandle(find(lib, "jsonrpc_classify_into"),
                FunctionDescriptor.of(U32, PTR, SIZE_T, U32, PTR, PTR, SIZE_T),
                Linker.Option.critical(true));
        CLASSIFICATION_FREE = handle(linker, lib, "jsonrpc_classification_free", FunctionDescriptor.ofVoid(PTR));
        INVALID_REPLY = handle(linker, lib, "jsonrpc_invalid_reply",
                FunctionDescriptor.of(REPLY, PTR, SIZE_T, U32, U32));
        LOG_VALUE = handle(linker, lib, "jsonrpc_log_value", FunctionDescriptor.of(STRING, PTR, SIZE_T));
        STRING_FREE = handle(linker, lib, "jsonrpc_string_free", FunctionDescriptor.ofVoid(PTR));
        KIND_NAME = handle(linker, lib, "jsonrpc_kind_name", FunctionDescriptor.of(PTR, U32));
        KIND_IS_MESSAGE = handle(linker, lib, "jsonrpc_kind_is_message", FunctionDescriptor.of(BOOL, U32));
        ID_KIND_NAME = handle(linker, lib, "jsonrpc_id_kind_name", FunctionDescriptor.of(PTR, U32));
        ROLE_NAME = handle(linker, lib, "jsonrpc_role_name", FunctionDescriptor.of(PTR, U32));
        STATUS_NAME = handle(linker, lib, "jsonrpc_status_name", FunctionDescriptor.of(PTR, U32));
        PROFILE_NAME = handle(linker, lib, "jsonrpc_profile_name", FunctionDescriptor.of(PTR, U32));
        ACTION_NAME = handle(linker, lib, "jsonrpc_action_name", FunctionDescriptor.of(PTR, U32));
        DEFAULT_MAX_LINE = handle(linker, lib, "jsonrpc_default_max_line", FunctionDescriptor.of(SIZE_T));
        PROFILE_MAX_LINE = handle(linker, lib, "jsonrpc_profile_max_line", FunctionDescriptor.of(SIZE_T, U32));
        READER_NEW = handle(linker, lib, "jsonrpc_reader_new", FunctionDescriptor.of(PTR, SIZE_T, U32));
        READER_FEED = heapHandle(linker, lib, "jsonrpc_reader_feed", FunctionDescriptor.of(U32, PTR, PTR, SIZE_T, PTR));
        READER_END = handle(linker, lib, "jsonrpc_reader_end", FunctionDescriptor.of(U32, PTR, PTR));
        READER_FREE = handle(linker, lib, "jsonrpc_reader_free", FunctionDescriptor.ofVoid(PTR));
        SESSION_NEW = handle(linker, lib, "jsonrpc_session_new", FunctionDescriptor.of(PTR, U32, U32, SIZE_T));
        SESSION_FEED = heapHandle(linker, lib, "jsonrpc_session_feed", FunctionDescriptor.of(U32, PTR, PTR, SIZE_T, PTR));
        SESSION_END = handle(linker, lib, "jsonrpc_session_end", FunctionDescriptor.of(U32, PTR, PTR));
        SESSION_SENT = heapHandle(linker, lib, "jsonrpc_session_sent", FunctionDescriptor.of(U32, PTR, PTR, SIZE_T));
        SESSION_REFUSED = heapHandle(linker, lib, "jsonrpc_session_refused",
                FunctionDescriptor.of(U32, PTR, PTR, SIZE_T, PTR));
        SESSION_OUTSTANDING = handle(linker, lib, "jsonrpc_session_outstanding", FunctionDescriptor.of(SIZE_T, PTR));
        SESSION_FREE = handle(linker, lib, "jsonrpc_session_free", FunctionDescriptor.ofVoid(PTR));
        DIRECTION_NAME = handle(linker, lib, "jsonrpc_direction_name", FunctionDescriptor.of(PTR, U32));
        DIRECTION_READ_BY = handle(linker, lib, "jsonrpc_direction_read_by", FunctionDescriptor.of(U32, U32));
        ACTION_GOES = handle(linker, lib, "jsonrpc_action_goes", FunctionDescriptor.of(U32, U32, U32));
        RELAY_NEW = handle(linker, lib, "jsonrpc_relay_new", FunctionDescriptor.of(PTR, U32, SIZE_T));
        RELAY_FEED = heapHandle(linker, lib, "jsonrpc_relay_feed",
                FunctionDescriptor.of(U32, PTR, U32, PTR, SIZE_T, PTR));
        RELAY_END = handle(linker, lib, "jsonrpc_relay_end", FunctionDescriptor.of(U32, PTR, U32, PTR));
        RELAY_WROTE = heapHandle(linker, lib, "jsonrpc_relay_wrote", FunctionDescriptor.of(U32, PTR, U32, PTR, SIZE_T));
        RELAY_REFUSED = heapHandle(linker, lib, "jsonrpc_relay_refused",
                FunctionDescriptor.of(U32, PTR, U32, PTR, SIZE_T, PTR));
        RELAY_OUTSTANDING = handle(linker, lib, "jsonrpc_relay_outstanding", FunctionDescriptor.of(SIZE_T, PTR, U32));
        RELAY_FREE = handle(linker, lib, "jsonrpc_relay_free", FunctionDescriptor.ofVoid(PTR));
    }

    private static MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(
                LIBRARY_PATH + " has no symbol " + name + " (not a jsonrpc-envelope library of ABI " + ABI_VERSION + "?)"));
    }

    private static MethodHandle handle(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd) {
        return linker.downcallHandle(find(lib, name), fd);
    }

    /**
     * A function that reads its input bytes during the call only (the header: the library copies
     * what it keeps): a heap array may be passed as is ({@link #heap}), with no native copy. The
     * collector waits for the call, as for every critical call; the bytes are one chunk.
     */
    private static MethodHandle heapHandle(Linker linker, SymbolLookup lib, String name, FunctionDescriptor fd) {
        return linker.downcallHandle(find(lib, name), fd, Linker.Option.critical(true));
    }

    /** {@code len} bytes of {@code data} at {@code off}, for a function of {@link #heapHandle}. */
    static MemorySegment heap(byte[] data, int off, int len) {
        return len == 0 ? MemorySegment.NULL : MemorySegment.ofArray(data).asSlice(off, len);
    }

    /** The library named by the property or the environment, else the jar's copy, extracted once. */
    private static Path locate() {
        String named = System.getProperty(LIB_PROPERTY);
        if (named == null || named.isEmpty()) {
            named = System.getenv(LIB_ENV);
        }
        if (named != null && !named.isEmpty()) {
            Path p = Path.of(named);
            if (!Files.isRegularFile(p)) {
                throw new UnsatisfiedLinkError(LIB_ENV + "/" + LIB_PROPERTY + " names " + named + ", which is no file");
            }
            return p;
        }
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new UnsatisfiedLinkError("jsonrpc-envelope carries its native library for linux-x86_64 only (this is "
                    + os + "-" + arch + "): build it (cargo build --release) and name it in " + LIB_ENV);
        }
        try (InputStream in = Native.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("the jar has no " + RESOURCE + ", and " + LIB_ENV + " is not set");
            }
            Path dir = Files.createTempDirectory("jsonrpc-envelope");
            Path file = dir.resolve("libjsonrpc_envelope.so");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            dir.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the native library " + RESOURCE, e);
        }
    }

    // ---- reading what the library returns ----------------------------------

    /** A static NUL-terminated string of the library, or null. */
    static String cString(MemorySegment p) {
        if (p.equals(MemorySegment.NULL)) {
            return null;
        }
        return p.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /** The bytes of a JsonRpcStr / JsonRpcString at {@code at}, or null when absent. */
    static byte[] strBytes(MemorySegment struct, long at) {
        MemorySegment ptr = struct.get(PTR, at);
        if (ptr.equals(MemorySegment.NULL)) {
            return null;
        }
        long len = struct.get(SIZE_T, at + 8);
        return ptr.reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
    }

    static Optional<String> str(MemorySegment struct, long at) {
        byte[] b = strBytes(struct, at);
        return b == null ? Optional.empty() : Optional.of(new String(b, StandardCharsets.UTF_8));
    }

    static String nameOf(MethodHandle nameFn, int value) {
        try {
            return cString((MemorySegment) nameFn.invokeExact(value));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** Fails with the status's name unless it is OK (0). */
    static void check(int status, String call) {
        if (status != 0) {
            throw new EnvelopeException(call, status);
        }
    }

    /** A heap array as a segment for a downcall, or NULL for none. */
    static MemorySegment copyIn(Arena arena, byte[] data, int off, int len) {
        if (len == 0) {
            return MemorySegment.NULL;
        }
        MemorySegment s = arena.allocate(len);
        MemorySegment.copy(data, off, s, ValueLayout.JAVA_BYTE, 0, len);
        return s;
    }
}
