package io.posekit.asset.ktx2;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** KTX2 files built in code for tests: UASTC textures of solid-colour (mode 8) blocks. */
public final class Ktx2Fixtures {

    private Ktx2Fixtures() {
    }

    /**
     * A {@code width × height} UASTC KTX2 file (no supercompression, one level, sRGB, RGBA channels) whose 4×4 blocks,
     * row by row, are solid {@code colours} ({@code 0xAARRGGBB}, as many as there are blocks).
     */
    public static byte[] uastcSolid(int width, int height, int... colours) {
        int blocks = ((width + 3) / 4) * ((height + 3) / 4);
        if (colours.length != blocks) {
            throw new IllegalArgumentException(width + "×" + height + " has " + blocks + " blocks, not " + colours.length);
        }
        int dfd = 80 + 24;
        int level = dfd + 44;
        ByteBuffer b = ByteBuffer.allocate(level + blocks * 16).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0xAB, 'K', 'T', 'X', ' ', '2', '0', (byte) 0xBB, 0x0D, 0x0A, 0x1A, 0x0A});
        b.putInt(0).putInt(1).putInt(width).putInt(height).putInt(0).putInt(0).putInt(1).putInt(1).putInt(0);
        b.putInt(dfd).putInt(44).putInt(0).putInt(0).putLong(0).putLong(0);
        b.putLong(level).putLong(blocks * 16L).putLong(blocks * 16L);
        // DFD: total size, vendor/type, version 2 and block size 40, model UASTC (166), BT.709, sRGB, 4×4 texels,
        // 16 bytes a block; one sample: 128 bits of channel RGBA (3)
        b.putInt(44).putInt(0).putInt(2 | 40 << 16).put((byte) 166).put((byte) 1).put((byte) 2).put((byte) 0);
        b.put((byte) 3).put((byte) 3).put((byte) 0).put((byte) 0).putInt(16).putInt(0);
        b.putShort((short) 0).put((byte) 127).put((byte) 3).putInt(0).putInt(0).putInt(-1);
        for (int argb : colours) {
            long bits = 0x17 | (long) (argb >> 16 & 0xFF) << 5 | (long) (argb >> 8 & 0xFF) << 13
                    | (long) (argb & 0xFF) << 21 | (long) (argb >>> 24) << 29;
            b.putLong(bits).putLong(0);
        }
        return b.array();
    }
}
