package io.github.jsonrpcenvelope;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Copies a JsonRpcBatch (borrowed from its reader or session until the next call) into Lines. */
final class Batches {
    private Batches() {}

    /** Static texts (a line's note) by their address: read once. */
    private static final ConcurrentHashMap<Long, Optional<String>> NOTES = new ConcurrentHashMap<>();

    /**
     * The batch's lines. As the header allows, each line's bytes are copied from the batch's bytes,
     * and the batch's texts are copied at once, every string then found in the copy.
     */
    static List<Line> read(MemorySegment batch) {
        long count = batch.get(Native.SIZE_T, Native.B_COUNT);
        if (count == 0) {
            return List.of();
        }
        MemorySegment items = batch.get(Native.PTR, Native.B_ITEMS).reinterpret(count * Native.LINE.byteSize());
        MemorySegment bytes = batch.get(Native.PTR, Native.B_BYTES).reinterpret(batch.get(Native.SIZE_T, Native.B_BYTES_LEN));
        Texts texts = Texts.copy(batch.get(Native.PTR, Native.B_TEXTS), batch.get(Native.SIZE_T, Native.B_TEXTS_LEN));
        List<Line> lines = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            long at = i * Native.LINE.byteSize();
            long number = items.get(Native.SIZE_T, at + Native.L_NUMBER);
            long offset = items.get(Native.SIZE_T, at + Native.L_OFFSET);
            long len = items.get(Native.SIZE_T, at + Native.L_LEN);
            Classification c = Classification.read(items, at + Native.L_CLASSIFICATION, texts);
            byte[] line = new byte[c.kind() == Kind.TOO_LONG ? 0 : (int) len];
            MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, offset, line, 0, line.length);
            Action action = Action.of(items.get(Native.U32, at + Native.L_ACTION));
            Optional<String> text = texts.str(items, at + Native.L_ACTION_TEXT);
            long note = items.get(ValueLayout.JAVA_LONG, at + Native.L_NOTE);
            Optional<String> why = note == 0 ? Optional.empty()
                    : NOTES.computeIfAbsent(note, a -> Optional.of(Native.cString(MemorySegment.ofAddress(a))));
            lines.add(new Line(number, len, line, c, action, text, why));
        }
        return lines;
    }
}
