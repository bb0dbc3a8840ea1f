package io.gpupipe.localstack.aws;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of CBOR (RFC 8949) that the AWS SDK's Smithy RPC v2 CBOR protocol uses, for the CloudWatch stand-in:
 * decodes to {@code Map}/{@code List}/{@code String}/{@code Long}/{@code Double}/{@code Boolean}/{@code byte[]}/null
 * (definite and indefinite lengths; tags are unwrapped), and encodes the same types with definite lengths.
 */
final class Cbor {
    private static final int BREAK = 0xff;

    private final ByteBuffer in;

    private Cbor(byte[] bytes) {
        this.in = ByteBuffer.wrap(bytes);
    }

    static Object decode(byte[] bytes) {
        if (bytes.length == 0) {
            return Map.of();
        }
        return new Cbor(bytes).next();
    }

    private Object next() {
        int initial = in.get() & 0xff;
        int major = initial >>> 5;
        int info = initial & 0x1f;
        return switch (major) {
            case 0 -> length(info);
            case 1 -> -1 - length(info);
            case 2 -> info == 31 ? chunks(2) : bytes((int) length(info));
            case 3 -> info == 31 ? new String(chunks(3), StandardCharsets.UTF_8)
                    : new String(bytes((int) length(info)), StandardCharsets.UTF_8);
            case 4 -> array(info);
            case 5 -> map(info);
            case 6 -> {
                length(info);
                yield next();
            }
            default -> simple(info);
        };
    }

    private long length(int info) {
        if (info < 24) {
            return info;
        }
        return switch (info) {
            case 24 -> in.get() & 0xffL;
            case 25 -> in.getShort() & 0xffffL;
            case 26 -> in.getInt() & 0xffffffffL;
            case 27 -> in.getLong();
            default -> throw new IllegalArgumentException("bad CBOR length " + info);
        };
    }

    private byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    private byte[] chunks(int major) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((in.get(in.position()) & 0xff) != BREAK) {
            int initial = in.get() & 0xff;
            if (initial >>> 5 != major) {
                throw new IllegalArgumentException("bad CBOR chunk");
            }
            out.writeBytes(bytes((int) length(initial & 0x1f)));
        }
        in.get();
        return out.toByteArray();
    }

    private List<Object> array(int info) {
        List<Object> list = new ArrayList<>();
        if (info == 31) {
            while ((in.get(in.position()) & 0xff) != BREAK) {
                list.add(next());
            }
            in.get();
        } else {
            for (long i = length(info); i > 0; i--) {
                list.add(next());
            }
        }
        return list;
    }

    private Map<String, Object> map(int info) {
        Map<String, Object> map = new LinkedHashMap<>();
        if (info == 31) {
            while ((in.get(in.position()) & 0xff) != BREAK) {
                map.put(String.valueOf(next()), next());
            }
            in.get();
        } else {
            for (long i = length(info); i > 0; i--) {
                map.put(String.valueOf(next()), next());
            }
        }
        return map;
    }

    private Object simple(int info) {
        return switch (info) {
            case 20 -> Boolean.FALSE;
            case 21 -> Boolean.TRUE;
            case 22, 23 -> null;
            case 25 -> halfFloat(in.getShort() & 0xffff);
            case 26 -> (double) in.getFloat();
            case 27 -> in.getDouble();
            default -> throw new IllegalArgumentException("unsupported CBOR simple value " + info);
        };
    }

    private static double halfFloat(int bits) {
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        double value = exponent == 0 ? mantissa * Math.pow(2, -24)
                : exponent == 31 ? (mantissa == 0 ? Double.POSITIVE_INFINITY : Double.NaN)
                : (mantissa + 1024) * Math.pow(2, exponent - 25);
        return (bits & 0x8000) != 0 ? -value : value;
    }

    static byte[] encode(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, Object value) {
        if (value == null) {
            out.write(0xf6);
        } else if (value instanceof Boolean b) {
            out.write(b ? 0xf5 : 0xf4);
        } else if (value instanceof Integer || value instanceof Long) {
            long n = ((Number) value).longValue();
            head(out, n >= 0 ? 0 : 1, n >= 0 ? n : -1 - n);
        } else if (value instanceof Number n) {
            out.write(0xfb);
            out.writeBytes(ByteBuffer.allocate(8).putDouble(n.doubleValue()).array());
        } else if (value instanceof String s) {
            byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            head(out, 3, bytes.length);
            out.writeBytes(bytes);
        } else if (value instanceof List<?> list) {
            head(out, 4, list.size());
            list.forEach(item -> write(out, item));
        } else if (value instanceof Map<?, ?> map) {
            head(out, 5, map.size());
            map.forEach((k, v) -> {
                write(out, String.valueOf(k));
                write(out, v);
            });
        } else {
            throw new IllegalArgumentException("cannot encode " + value.getClass());
        }
    }

    private static void head(ByteArrayOutputStream out, int major, long length) {
        int type = major << 5;
        if (length < 24) {
            out.write(type | (int) length);
        } else if (length < 0x100) {
            out.write(type | 24);
            out.write((int) length);
        } else if (length < 0x10000) {
            out.write(type | 25);
            out.writeBytes(ByteBuffer.allocate(2).putShort((short) length).array());
        } else if (length < 0x100000000L) {
            out.write(type | 26);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) length).array());
        } else {
            out.write(type | 27);
            out.writeBytes(ByteBuffer.allocate(8).putLong(length).array());
        }
    }
}
