/**
 * Resource meters: {@link dev.luavm.meter.GasMeter} (instructions and library work, time,
 * cancellation) and {@link dev.luavm.meter.MemoryMeter} (the one allocation choke point, with a
 * deterministic live-heap walk so the cap applies to what a script holds).
 */
package dev.luavm.meter;
