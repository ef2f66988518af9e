#!/usr/bin/env python3
"""The GPU's properties as cuDNN reads them (CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR from the device id, cuDNN
>= 9.8), written in the form of data/devices/h200-sxm.json, so that the real_cudnn CTest can plan graphs
for this very GPU on a machine without one. Needs the GPU; about a second.

    dump_devprop.py LIBCUDNN OUT.json [DEVICE_ID]
"""
import ctypes
import datetime
import json
import sys

DEVICEPROP_DESCRIPTOR, ATTR_DEVICE_ID, ATTR_JSON = 38, 2700, 2702
TYPE_INT32, TYPE_CHAR = 23, 24


def dump(lib_path, device_id=0):
    lib = ctypes.CDLL(lib_path)
    lib.cudnnGetVersion.restype = ctypes.c_size_t
    version = lib.cudnnGetVersion()

    def check(status, what):
        if status != 0:
            buf = ctypes.create_string_buffer(1024)
            lib.cudnnGetLastErrorString(buf, ctypes.c_size_t(1024))
            raise RuntimeError(f"{what}: cuDNN status {status} ({buf.value.decode(errors='replace')})")

    desc = ctypes.c_void_p()
    check(lib.cudnnBackendCreateDescriptor(DEVICEPROP_DESCRIPTOR, ctypes.byref(desc)), "creating the device-properties descriptor")
    dev = ctypes.c_int32(device_id)
    check(lib.cudnnBackendSetAttribute(desc, ATTR_DEVICE_ID, TYPE_INT32, ctypes.c_int64(1), ctypes.byref(dev)), "setting the device id")
    check(lib.cudnnBackendFinalize(desc), "reading the device's properties")
    n = ctypes.c_int64(0)
    check(lib.cudnnBackendGetAttribute(desc, ATTR_JSON, TYPE_CHAR, ctypes.c_int64(0), ctypes.byref(n), None), "sizing the JSON")
    buf = ctypes.create_string_buffer(n.value + 1)
    check(lib.cudnnBackendGetAttribute(desc, ATTR_JSON, TYPE_CHAR, n, ctypes.byref(n), buf), "reading the JSON")
    lib.cudnnBackendDestroyDescriptor(desc)
    props = json.loads(buf.value.decode())
    return {"device": props.get("deviceName", "?"),
            "recorded_from": f"a device run on {datetime.date.today().isoformat()}: cuDNN {version} read device {device_id} "
                             "(CUDNN_ATTR_DEVICEPROP_DEVICE_ID)",
            "sources": {"all": "cuDNN's own JSON representation of the GPU (CUDNN_ATTR_DEVICEPROP_JSON_REPRESENTATION)"},
            "cudnn_device_properties": props}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        record = dump(sys.argv[1], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    except (OSError, RuntimeError, ValueError) as e:
        record = {"error": str(e)}
    with open(sys.argv[2], "w") as f:
        json.dump(record, f, indent=1)
    print(json.dumps(record)[:400])
    return 0 if "error" not in record else 1


if __name__ == "__main__":
    sys.exit(main())
