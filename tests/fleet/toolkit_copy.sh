# Sourced by the fleet tests: a CUDA toolkit copy with this machine's real cuDNN 9, and its damage and repair.
#   make_toolkit_copy SOURCE_TOOLKIT DEST: the cuDNN headers, cuda.h, version.json and nvcc copied; the big cuDNN
#     sub-libraries linked to the source's files; libcudnn.so.9 itself copied (the one damaged: a link would
#     damage the source), its good bytes kept beside as DEST.libcudnn.so.9.good
#   damage_toolkit_copy DEST: libcudnn.so.9 truncated to 64 KiB (as a disk-full copy or an interrupted rsync leaves it)
#   repair_toolkit_copy DEST: the good bytes put back
make_toolkit_copy() {
  local src=$1 tk=$2 f
  mkdir -p "$tk/include" "$tk/lib64" "$tk/bin"
  cp "$src"/include/cudnn*.h "$tk/include/"
  [[ -f $src/include/cuda.h ]] && cp "$src/include/cuda.h" "$tk/include/"
  [[ -f $src/version.json ]] && cp "$src/version.json" "$tk/"
  [[ -e $src/bin/nvcc ]] && cp "$src/bin/nvcc" "$tk/bin/"
  for f in "$src"/lib64/libcudnn*.so.9; do
    [[ $(basename "$f") == libcudnn.so.9 ]] || ln -s "$(realpath "$f")" "$tk/lib64/$(basename "$f")"
  done
  cp "$(realpath "$src/lib64/libcudnn.so.9")" "$tk/lib64/libcudnn.so.9"
  cp "$tk/lib64/libcudnn.so.9" "$tk.libcudnn.so.9.good"
  return 0
}
damage_toolkit_copy() {
  head -c 65536 "$1.libcudnn.so.9.good" > "$1/lib64/libcudnn.so.9.new"
  mv "$1/lib64/libcudnn.so.9.new" "$1/lib64/libcudnn.so.9"
}
repair_toolkit_copy() {
  cp "$1.libcudnn.so.9.good" "$1/lib64/libcudnn.so.9.new"
  mv "$1/lib64/libcudnn.so.9.new" "$1/lib64/libcudnn.so.9"
}
