#!/usr/bin/env python3
"""ggwave side of modem-bench (run inside the venv the bench makes).
  encode OUT.f32 HEX PROTOCOL   write ggwave's waveform (float32, 48 kHz) for the payload
  decode MANIFEST               MANIFEST lines: "path hex"; prints how many files decode to exactly hex
"""
import sys
import ggwave

ggwave.disableLog()
if sys.argv[1] == "encode":
    payload = bytes.fromhex(sys.argv[3])
    wave = ggwave.encode(payload, protocolId=int(sys.argv[4]), volume=50)
    open(sys.argv[2], "wb").write(wave)
else:
    ok = 0
    for line in open(sys.argv[2]):
        path, expected = line.split()
        data = open(path, "rb").read()
        instance = ggwave.init()
        got = []
        chunk = 4 * 1024
        for i in range(0, len(data) - chunk + 1, chunk):
            r = ggwave.decode(instance, data[i:i + chunk])
            if r is not None:
                got.append(r)
        ggwave.free(instance)
        if len(got) == 1 and got[0] == bytes.fromhex(expected):
            ok += 1
    print(ok)
