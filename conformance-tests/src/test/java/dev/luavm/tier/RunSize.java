package dev.luavm.tier;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/** The length of the code of a generated class's {@code run} method (or of every method), read from the class file. */
final class RunSize {
    private RunSize() {}

    static int of(byte[] bytes) throws IOException {
        Integer run = methods(bytes).get("run");
        if (run == null) throw new IOException("no run method");
        return run;
    }

    /** Every method's code length by name, in class-file order. */
    static java.util.Map<String, Integer> methods(byte[] bytes) throws IOException {
        java.util.Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        in.readInt();
        in.readUnsignedShort();
        in.readUnsignedShort();
        int n = in.readUnsignedShort();
        String[] utf = new String[n];
        for (int i = 1; i < n; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf[i] = in.readUTF();
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                default -> throw new IOException("constant tag " + tag);
            }
        }
        in.skipBytes(6);
        in.skipBytes(2 * in.readUnsignedShort()); // interfaces
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.skipBytes(6);
            skipAttributes(in);
        }
        int methods = in.readUnsignedShort();
        for (int i = 0; i < methods; i++) {
            in.readUnsignedShort();
            String name = utf[in.readUnsignedShort()];
            in.readUnsignedShort();
            int attrs = in.readUnsignedShort();
            for (int j = 0; j < attrs; j++) {
                String attr = utf[in.readUnsignedShort()];
                int len = in.readInt();
                if (attr.equals("Code")) {
                    in.skipBytes(4); // max stack, max locals
                    sizes.put(name, in.readInt());
                    in.skipBytes(len - 8);
                    continue;
                }
                in.skipBytes(len);
            }
        }
        return sizes;
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        for (int j = 0; j < n; j++) {
            in.readUnsignedShort();
            in.skipBytes(in.readInt());
        }
    }
}
