# Sourced by the action tests: a temporary CUDA 12.4 toolkit tree (this image's layout) in $tk and a
# copy of the 9.1 test tarball under NVIDIA's name in $archive. Needs ARCHIVES (the test archives folder).
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
tk=$TMP/cuda-12.4
mkdir -p "$tk/include" "$tk/bin" "$tk/targets/x86_64-linux/lib"
echo '#define CUDA_VERSION 12040' > "$tk/include/cuda.h"; echo nvcc > "$tk/bin/nvcc"
ln -s targets/x86_64-linux/lib "$tk/lib64"
archive=$TMP/cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz
cp "$ARCHIVES/good/cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz" "$archive"
