package dev.luavm.tier;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Reads a class file's constant pool: the classes it names and the kinds of constants it holds. */
final class ClassAudit {
    final String thisClass;
    final List<String> classes = new ArrayList<>();
    final List<Integer> dynamicTags = new ArrayList<>();

    ClassAudit(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort();
        in.readUnsignedShort();
        int n = in.readUnsignedShort();
        String[] utf = new String[n];
        int[] classIdx = new int[n];
        for (int i = 1; i < n; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 7 -> classIdx[i] = in.readUnsignedShort();
                case 8, 16, 19, 20 -> {
                    if (tag != 8) dynamicTags.add(tag);
                    in.readUnsignedShort();
                }
                case 9, 10, 11, 12 -> in.readInt();
                case 15 -> {
                    dynamicTags.add(tag);
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 17, 18 -> {
                    dynamicTags.add(tag);
                    in.readInt();
                }
                default -> throw new IOException("constant pool tag " + tag);
            }
        }
        for (int i = 1; i < n; i++) if (classIdx[i] != 0) classes.add(utf[classIdx[i]]);
        in.readUnsignedShort();
        thisClass = utf[classIdx[in.readUnsignedShort()]];
    }
}
