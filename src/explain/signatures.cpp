#include "cudnnctl/explain/signatures.hpp"

#include <algorithm>
#include <array>
#include <vector>
#include <cstdlib>

#include <fmt/format.h>

namespace cudnnctl {

namespace {
constexpr Signature k_signatures[] = {
    {"toolkit.found", "toolkit.found", 1, "No CUDA toolkit found", "",
     "no CUDA_PATH/CUDA_HOME, no nvcc on PATH, nothing in the usual places",
     "install the CUDA toolkit, or name it with --cuda-path DIR (or set CUDA_PATH)"},
    {"toolkit.env.not-a-toolkit", "toolkit.env", 1, "An environment variable names a folder that is not a toolkit", "",
     "an environment variable names a folder that is not a toolkit",
     "fix or unset that variable"},
    {"toolkit.env.differs", "toolkit.env", 1, "CUDA_PATH or CUDA_HOME names another toolkit", "",
     "two toolkits are named: build tools follow CUDA_PATH/CUDA_HOME, programs follow the loader path",
     "point CUDA_PATH and CUDA_HOME at the toolkit you use, or pass --cuda-path"},
    {"toolkit.target", "toolkit.target", 1, "The toolkit is not for the platform named with --target", "",
     "the folder given is laid out for another OS than --target names (a Windows toolkit keeps DLLs in bin and lib\\x64; a Linux one lib64)",
     "point --cuda-path at the toolkit of that platform (on WSL the Windows one is under /mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA), or drop --target"},
    {"files.cudnn", "files.cudnn", 2, "No cuDNN in the toolkit", "",
     "cuDNN is not installed into this toolkit",
     "cudnnctl install cudnn-<platform>-<version>_cuda<toolkit major>-archive.<zip|tar.xz> --cuda-path <toolkit>"},
    {"files.stale", "files.stale", 2, "Libraries of several cuDNN majors in one folder", "",
     "an older cuDNN was left behind when a newer one was copied in",
     "remove the old major's files (cudnnctl install removes them)"},
    {"files.complete", "files.complete", 2, "Missing sub-libraries", "`Could not load library cudnn_cnn_infer64_8.dll. Error code 126`; `Unable to load any of {libcudnn_ops.so.9.1.0, ...}`",
     "only part of the archive was copied (e.g. only the main library); cuDNN loads its sub-libraries by name at first use and aborts or fails without them",
     "copy every library of the archive, or reinstall with cudnnctl install"},
    {"files.headers", "files.headers", 2, "No cuDNN headers", "",
     "the headers were not installed",
     "programs run without them, but nothing can be compiled against cuDNN; reinstall the archive"},
    {"files.versions.mixed", "files.versions", 2, "Mixed cuDNN versions in one folder", "`[WinError 127] The specified procedure could not be found`; `CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH`",
     "sub-libraries of different releases sit side by side; loading them together fails with SUBLIBRARY_VERSION_MISMATCH or missing symbols",
     "keep one consistent set: reinstall one archive with cudnnctl install"},
    {"files.versions.header", "files.versions", 2, "Headers and libraries from different releases", "",
     "headers and libraries come from different releases",
     "reinstall one archive with cudnnctl install"},
    {"files.receipt", "files.receipt", 2, "Installed files changed after the install", "",
     "files were emptied, quarantined or replaced after the install (antivirus does this to DLLs)",
     "reinstall the same archive: cudnnctl install repairs what the receipt lists"},
    {"files.search_path", "files.search_path", 2, "Another cuDNN copy is loaded first", "`Loaded runtime CuDNN library: X but source was compiled with: Y`; a framework reports an older cuDNN than the one installed",
     "the loader finds another copy first, or none of the toolkit's",
     "cudnnctl path shows the order; sudo cudnnctl path --apply puts the toolkit first"},
    {"files.dlls", "files.dlls", 2, "Damaged, 32-bit or incomplete Windows DLLs", "`Could not locate zlibwapi.dll`; `Error code 193`; `Error code 126`",
     "a DLL is damaged, of the wrong bitness, or a DLL it imports is not beside it (Windows error 126 at load time; 193 for a 32-bit DLL)",
     "reinstall the archive with cudnnctl install; for cuDNN 8 put an x64 zlibwapi.dll beside the cuDNN DLLs"},
    {"files.frameworks", "files.frameworks", 2, "PyTorch or pip wheels bring their own cuDNN", "`torch.backends.cudnn.version()` reports another version than the toolkit's",
     "PyTorch (and other frameworks) load the cuDNN their wheels bring first, not the toolkit's: their version is what they report",
     "nothing to fix if that is intended; the toolkit's cuDNN serves programs that do not bring their own"},
    {"loader.needed", "loader.needed", 3, "A library cuDNN is linked against cannot be found", "`error while loading shared libraries: libz.so.1: cannot open shared object file`",
     "a library cuDNN is linked against is on none of the loader's paths (libz.so.1 is the usual one)",
     "install it (Debian/Ubuntu: zlib1g for libz.so.1) or add its folder to the loader path"},
    {"loader.needed.windows", "loader.needed", 3, "A DLL a cuDNN DLL imports is on none of Windows' search folders", "`Could not load library cudnn_cnn64_9.dll. Error code 126`; `[WinError 126] The specified module could not be found`",
     "a DLL that a cuDNN DLL imports is not in the cuDNN folder, the toolkit's bin, System32 or any PATH folder: Windows refuses the load with error 126",
     "copy the missing DLL beside the cuDNN DLLs (reinstall the archive with cudnnctl install), or put the folder that holds it on PATH"},
    {"loader.needed.vcredist", "loader.needed", 3, "The Microsoft Visual C++ runtime is missing", "`Error code 126` although every cuDNN DLL is present",
     "a DLL imports the Visual C++ runtime (vcruntime140.dll, msvcp140.dll), which is not in System32",
     "install the Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64)"},
    {"loader.runtime_deps", "loader.runtime_deps", 3, "cuBLASLt or NVRTC cannot be found", "`Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file`",
     "cuDNN opens cuBLASLt and NVRTC by name when it first needs them; operations that need them fail then",
     "install cuBLAS and NVRTC for the toolkit's CUDA major (the toolkit's, or pip nvidia-cublas / nvidia-cuda-nvrtc) and put their folder on the loader path"},
    {"loader.load.cannot-load", "loader.load", 3, "A cuDNN library does not load", "",
     "the loader's error names the missing or broken dependency",
     "install what it names, or reinstall cuDNN with cudnnctl install"},
    {"loader.load.aborted", "loader.load", 3, "cuDNN aborts at its first call", "`Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor` then `Aborted (core dumped)`",
     "cuDNN loads its sub-libraries by name at the first call and aborts when one cannot be found (\"Invalid handle. Cannot load symbol\")",
     "make sure every sub-library is in the same folder as libcudnn, or reinstall with cudnnctl install"},
    {"loader.version_checks", "loader.version_checks", 3, "Sub-library version checks fail", "",
     "a sub-library is missing (SUBLIBRARY_UNAVAILABLE) or comes from another release (SUBLIBRARY_VERSION_MISMATCH)",
     "keep one consistent set of cuDNN libraries in one folder"},
    {"loader.version", "loader.version", 3, "The loaded cuDNN is not the installed one", "",
     "another copy of cuDNN was loaded, or headers and libraries differ",
     "cudnnctl path shows which copy wins"},
    {"driver.none", "driver.library", 4, "No NVIDIA driver", "`libcuda.so.1: cannot open shared object file`; `CUDA driver version is insufficient`",
     "the NVIDIA driver is not installed, or this container or VM has no GPU passed through",
     "install the NVIDIA driver; in a container run it with the GPU (docker --gpus all); under WSL2 keep /usr/lib/wsl/lib on the path"},
    {"driver.none.windows", "driver.library", 4, "No NVIDIA driver (Windows: no nvcuda.dll)",
     "CUDA programs find no device or report an insufficient driver; nvcuda.dll is not in System32",
     "nvcuda.dll, the CUDA driver library, comes only with NVIDIA's display driver, which puts it in System32; the CUDA toolkit and "
     "cuDNN do not contain it, so without the driver nothing reaches the GPU",
     "install the NVIDIA display driver for this GPU (nvidia.com/drivers) from an elevated prompt, then open a new prompt and run "
     "cudnnctl doctor again; in a virtual machine, pass the GPU through first"},
    {"driver.stub", "driver.library", 4, "The toolkit's stub library is loaded as the driver", "`CUDA_ERROR_STUB_LIBRARY`; cuDNN says `cudaGetDeviceCount(&count) != cudaSuccess`",
     "lib64/stubs/libcuda.so is for linking only; a folder holding it (or a copy named libcuda.so.1) comes first on the loader path",
     "remove the stubs folder from LD_LIBRARY_PATH and ld.so.conf.d, and delete any libcuda.so.1 copied from it"},
    {"driver.stubs-on-path", "driver.stubs_on_path", 4, "The toolkit's stubs folder is on the loader path", "`CUDA_ERROR_STUB_LIBRARY` once a driver is installed; `cudaGetDeviceCount` fails although nvidia-smi works",
     "lib64/stubs holds a link-time stand-in of libcuda.so; with that folder on LD_LIBRARY_PATH (or in ld.so.conf.d) programs that open libcuda.so get the stub instead of the driver",
     "remove the stubs folder from LD_LIBRARY_PATH and from /etc/ld.so.conf.d (then run ldconfig); link with -L<toolkit>/lib64/stubs only at build time"},
    {"driver.no-device", "driver.library", 4, "The driver sees no GPU", "",
     "no GPU, or it is not visible to this process (CUDA_VISIBLE_DEVICES, container device list)",
     "check nvidia-smi and CUDA_VISIBLE_DEVICES"},
    {"driver.init", "driver.library", 4, "The driver does not initialise", "",
     "the driver is installed but does not work (kernel module not loaded, or mismatched user and kernel parts)",
     "reboot after a driver update, or reinstall the driver; nvidia-smi shows the state"},
    {"workload.could-not-run", "workload.conv", 5, "The GPU workload cannot run", "",
     "the device accepted a handle but not work",
     "see the error; cudnnctl bench shows every layer"},
    {"workload.correctness", "workload.correctness", 5, "Wrong results on the GPU", "",
     "the GPU computes wrong results: a broken driver, a faulty GPU, or a cuDNN build for another architecture",
     "update the driver; check the GPU (nvidia-smi -q, dmesg for Xid errors)"},
    {"workload.failed-layers", "workload.conv", 5, "Convolutions fail on some layers", "`CUDNN_STATUS_EXECUTION_FAILED` on some layers only",
     "cuDNN could not run its kernels for some layers",
     "match cuDNN to the GPU's architecture and the driver (see the error)"},
    {"workload.slow", "workload.conv", 5, "Convolutions are far below the GPU's peak", "",
     "tensor cores are not used, or the GPU is throttled or shared",
     "check clocks and other processes (nvidia-smi); cudnnctl bench shows each layer"},
    {"driver.version", "driver.version", 4, "The driver is older than NVIDIA's minimum", "`CUDNN_STATUS_NOT_INITIALIZED`, `possibly insufficient driver version`",
     "the driver is older than the CUDA runtime cuDNN was built with: cudnnCreate fails with NOT_INITIALIZED",
     "update the NVIDIA driver to the minimum NVIDIA lists for this cuDNN and CUDA major (shown in the finding) or newer"},
    {"device.arch.too-new-gpu", "device.arch", 4, "The GPU is newer than this cuDNN", "`no kernel image is available for execution on the device`; `CUDNN_STATUS_ARCH_MISMATCH`",
     "cuDNN has no kernels for this architecture: EXECUTION_FAILED / ARCH_MISMATCH",
     "install a newer cuDNN built for this GPU"},
    {"device.arch.dropped", "device.arch", 4, "The GPU is older than this cuDNN supports", "`CUDNN_STATUS_EXECUTION_FAILED` although `cudnnCreate` succeeds (Maxwell, Pascal, Volta with cuDNN 9.11+)",
     "cuDNN dropped this architecture (Maxwell, Pascal and Volta need cuDNN 9.10 or older): cudnnCreate may work, convolutions fail",
     "use cuDNN 9.10.x or older for this GPU"},
    {"device.create", "device.create", 4, "cudnnCreate fails", "`CUDNN_STATUS_NOT_INITIALIZED`; `could not create cudnn handle`",
     "NOT_INITIALIZED usually means the GPU is out of memory, or the driver is older than cuDNN's CUDA runtime; other statuses name an architecture or driver mismatch",
     "free GPU memory (nvidia-smi) or update the driver; for a mismatch, match cuDNN to the GPU and driver"},
    // Messages `cudnnctl explain` names in logs, and the faults `cudnnctl trace` and the stack checks report.
    {"loader.sublibrary.elsewhere", "trace.sublibraries", 3, "A cuDNN sub-library comes from another folder than libcudnn", "`undefined symbol: cudnnGetLibConfig`; `libcudnn_graph.so.9: undefined symbol`",
     "libcudnn.so.9 / cudnn64_9.dll was loaded from one folder (a wheel, a venv) and a sub-library it opens by name from another (the system's, an older release): the two halves do not fit",
     "keep one complete cuDNN set in one folder and remove the other copy from LD_LIBRARY_PATH/PATH; cudnnctl trace -- <your command> shows which file came from where"},
    {"loader.versions.mixed", "trace.versions", 3, "cuDNN libraries of several releases in one process", "`CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH`",
     "the program loaded cuDNN's main library and sub-libraries of different releases (an older copy earlier on the search path, or a partial set beside a full one); cuDNN refuses or misbehaves",
     "keep one cuDNN release on the program's search path: remove or reorder the other copy (cudnnctl trace -- <your command> names both)"},
    {"loader.cuda-majors", "stack.cuda_major", 3, "Libraries of two CUDA majors in one program", "`libcublasLt.so.12: cannot open shared object file` in a CUDA 13 environment; `libcudart.so.13: cannot open shared object file`",
     "cudart, cuBLAS/cuBLASLt, NVRTC and cuDNN must all be built for one CUDA major; a CUDA 12 wheel beside a CUDA 13 toolkit (or the reverse) loads both runtimes or misses the one it needs",
     "install every CUDA library for one major (pip nvidia-*-cu12 or -cu13, the matching cuDNN archive _cuda12/_cuda13) and remove the other major's folders from the loader path"},
    {"loader.onnxruntime", "explain", 3, "ONNX Runtime cannot load its CUDA provider", "`LoadLibrary failed with error 126`; `Failed to load library libonnxruntime_providers_cuda.so with error`",
     "onnxruntime_providers_cuda loads cuDNN, cuBLAS and cudart of the CUDA major it was built for; one of them is not on the search path (LoadLibrary ignores AddDllDirectory folders; pip wheels are found only after import torch or onnxruntime.preload_dlls()), so the session falls back to the CPU",
     "call onnxruntime.preload_dlls() before creating the session, or put the cuDNN and CUDA bin folders of the right major on PATH/LD_LIBRARY_PATH; cudnnctl trace -- python app.py shows what was loaded"},
    {"loader.tf-cannot-dlopen", "explain", 3, "TensorFlow cannot open some GPU libraries", "`Cannot dlopen some GPU libraries`",
     "TensorFlow tried to open cuDNN/cuBLAS/cudart and one failed; the message hides which and why",
     "run again with TF_CPP_MAX_VLOG_LEVEL=3 to see the failing library, or cudnnctl trace -- python app.py to see what was loaded"},
    {"loader.factory-registered", "explain", 3, "TensorFlow/XLA registers the cuDNN factory twice", "`Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered`",
     "TensorFlow and XLA (or JAX) both register their cuDNN, cuFFT and cuBLAS plugins at import; the second registration is refused and logged",
     "nothing: the GPU works; set TF_CPP_MIN_LOG_LEVEL=2 to hide it", true},
    {"loader.paging-file", "explain", 3, "The Windows paging file is too small for the cuDNN DLLs", "`[WinError 1455] The paging file is too small for this operation to complete`",
     "each process (and each DataLoader worker) that loads the large cuDNN/torch DLLs needs commit charge for them; the paging file cannot cover it",
     "let Windows manage the paging file size (or enlarge it), or use fewer DataLoader workers (num_workers)"},
    {"toolkit.cuda13-bin-x64", "explain", 1, "CUDA 13 keeps its Windows DLLs in bin\\x64", "`Could not find module 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\cudart64_13.dll'`",
     "CUDA 13 moved the DLLs from bin to bin\\x64; PATH entries and loaders that know only bin miss them",
     "add <toolkit>\\bin\\x64 to PATH (cudnnctl path --apply does this for the toolkit it installs into)"},
    {"files.cudnn-path", "files.cudnn_path", 2, "CUDNN_PATH names another cuDNN than the loader takes", "cudnn-frontend, TransformerEngine or cuda-pathfinder use another cuDNN than the program loads",
     "CUDNN_PATH is read by NVIDIA's cuda-pathfinder, cudnn-frontend and TransformerEngine builds; the dynamic loader ignores it, so builds and programs use different copies",
     "point CUDNN_PATH at the folder above the cuDNN the loader takes (cudnnctl path prints it), or unset it"},
    {"driver.compat-shadows", "driver.compat", 4, "cuda-compat's libcuda shadows a newer driver", "`system has unsupported display driver / cuda driver combination`; `CUDA_ERROR_SYSTEM_DRIVER_MISMATCH`",
     "the forward-compatibility libcuda.so.1 of a cuda-compat package (CUDA containers list it in /etc/ld.so.conf.d) is found before the host driver's, which is newer: the two do not match",
     "remove the cuda-compat folder from the loader path when the host driver is newer (delete /etc/ld.so.conf.d/000_cuda_compat.conf and run ldconfig, or drop it from LD_LIBRARY_PATH)"},
    {"driver.wsl.copies", "driver.wsl", 4, "WSL2's driver libraries are copies, not links", "`/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link`",
     "WSL2 mounts the Windows driver's libraries into /usr/lib/wsl/lib as plain files; ldconfig warns, and libcuda.so (unversioned) is missing from the ld.so cache, which cuDNN 8 sub-libraries open by that name",
     "the warning is harmless; if a program needs libcuda.so, add /usr/lib/wsl/lib to LD_LIBRARY_PATH (or link libcuda.so to libcuda.so.1 in a folder of your own); do not install a Linux driver inside WSL", true},
    {"driver.wsl.linux-driver", "driver.wsl", 4, "A Linux NVIDIA driver is installed inside WSL2", "`CUDA Version: ERR!`; `NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver` under WSL2",
     "under WSL2 the driver is the Windows one (/usr/lib/wsl/lib); a Linux driver or cuda-drivers package inside the distribution puts its own libcuda.so.1 first, which cannot reach the GPU",
     "remove the Linux driver packages from the distribution (apt remove 'nvidia-driver-*' 'libnvidia-compute-*' cuda-drivers) and keep /usr/lib/wsl/lib; install only the CUDA toolkit (cuda-toolkit-XX-Y) inside WSL"},
    // Families users met in 2024-26 (tests/explain/corpus): what `cudnnctl explain` names them, with the facts the
    // message itself gives (versions, majors, library names) added by explain as the match's detail.
    {"workload.engine-not-found", "explain", 5, "cuDNN has no engine or execution plan for this operation",
     "`GET was unable to find an engine to execute this computation`; `FIND was unable to find an engine`; `[cudnn_frontend] Error: No execution plans support the graph`",
     "the framework asked cuDNN (GET: its heuristics, FIND: benchmarking) or the cudnn-frontend for a kernel, and none supports this operation's shapes, data type, layout or GPU; mostly a framework or model limit, not an install fault (torch 2.5.0's cuDNN attention is a known case); it is an install problem when the cuDNN loaded is older than the framework was built with, or has no kernels for this GPU's architecture",
     "run once with CUDNN_LOGERR_DBG=1 CUDNN_LOGDEST_DBG=stderr to see why each engine was refused; run cudnnctl doctor to check the loaded cuDNN's version and the GPU's architecture; if both are right, update or pin the framework (pip install torch==2.4.1 avoided torch 2.5.0's cuDNN attention failure) or turn cuDNN off for that operation (torch.backends.cudnn.enabled = False)"},
    {"workload.plan-warning", "explain", 5, "PyTorch warns that one cuDNN plan failed", "`UserWarning: Plan failed with a cudnnException: CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR: cudnnFinalize Descriptor Failed cudnn_status: CUDNN_STATUS_NOT_SUPPORTED`",
     "PyTorch 2.3.0 tries several cuDNN plans for a convolution and warns when one is not supported; it then uses another, so results and speed are unaffected",
     "nothing to fix; pip install -U torch (2.3.1 and later no longer print it)", true},
    {"loader.cuda-runtime", "explain", 3, "A CUDA runtime library (cudart, cuBLAS, cuBLASLt or NVRTC) cannot be found",
     "`Library cublas64_12.dll is not found or cannot be loaded`; `Could not locate cublasLt64_12.dll`; `libcudart.so.12: cannot open shared object file`",
     "the program (or cuDNN, which opens cuBLASLt and NVRTC by name) needs a CUDA runtime library of the CUDA major in its name (64_12, .so.12: CUDA 12), and no folder on the search path holds it; it is part of the CUDA toolkit or the nvidia-*-cuNN wheels, not of cuDNN",
     "install the CUDA libraries of that major (pip install nvidia-cuda-runtime-cu12 nvidia-cublas-cu12 nvidia-cuda-nvrtc-cu12, with -cu13 for CUDA 13, or the CUDA toolkit of that major) and put their folder on LD_LIBRARY_PATH (Linux) or PATH (Windows: the toolkit's bin, bin\\x64 for CUDA 13)"},
    {"loader.cudnn-major", "explain", 3, "The program wants another cuDNN major than the one found",
     "`Could not load library libcudnn_ops_infer.so.8` on a cuDNN 9 set-up; `Could not locate cudnn_cnn_infer64_8.dll`; `libcudnn.so.8: cannot open shared object file`",
     "the program was built for the cuDNN major in the file name (libcudnn*.so.8, cudnn*64_8.dll: cuDNN 8) and only another major is installed (cuDNN 9 has none of cuDNN 8's ops_infer/cnn_infer/adv_infer files, and the reverse); majors do not replace each other",
     "install the major the program asks for beside the one you have (cuDNN 8 for CUDA 12: pip install \"nvidia-cudnn-cu12<9\", or cudnnctl install a cudnn-*-8.9.7.29_cuda12-archive into its own folder), or install the program's build for the major you have (ctranslate2>=4.5 and onnxruntime-gpu>=1.19 use cuDNN 9)"},
    {"files.dlls.bad-image", "files.dlls", 2, "Windows error 193: a DLL is not a valid image for this process",
     "`OSError: [WinError 193] %1 is not a valid Win32 application`; `Error code 193`",
     "the DLL Windows tried to load is not a 64-bit x64 image: a 32-bit or ARM64 build, a damaged download, or an emptied file (antivirus quarantine leaves 0-byte DLLs behind)",
     "look at the DLL the message names: a size of 0 bytes means restore it from quarantine (and exclude the folder) or reinstall the package or archive (cudnnctl install for cuDNN); a 32-bit or ARM64 file means install the x64 build of that package for this 64-bit Python"},
    {"framework.cudnn-older", "explain", 3, "The cuDNN loaded is older than the framework was built with",
     "`Loaded runtime CuDNN library: 9.10.1 but source was compiled with: 9.13.1`; `Found cuDNN version 8600, but JAX was built against version 8906`; `Outdated cuDNN installation found`; `cuDNN version incompatibility: PyTorch was compiled against (9, 13, 0) but found runtime version (9, 10, 2)`",
     "TensorFlow, JAX/XLA and PyTorch check at start that the cuDNN they load has the major they were built with and at least its minor; an older copy is installed, or found first on the search path (LD_LIBRARY_PATH, a conda env, the system), and the GPU backend refuses to start or falls back to the CPU",
     "install a cuDNN at least as new as the one the message names (pip install -U nvidia-cudnn-cu12, or the framework's extra such as pip install -U \"jax[cuda12]\"), and remove older copies from LD_LIBRARY_PATH; cudnnctl path shows which copy is found first"},
    {"framework.cudnn-not-found", "explain", 3, "The framework finds no cuDNN it can load",
     "`CUDA backend failed to initialize: Unable to load cuDNN. Is it installed?`; `cuDNN not available for your platform`",
     "the framework looked for cuDNN (its pip wheel, then the loader's paths) and found none it can open: cuDNN is not installed for this environment, or not for this CUDA major or platform",
     "install the framework's own cuDNN (pip install -U \"jax[cuda12]\" pulls nvidia-cudnn-cu12; in Julia, ] add cuDNN on a supported platform), or install cuDNN with cudnnctl install and put its lib folder on LD_LIBRARY_PATH (bin on PATH on Windows)"},
    {"framework.paddle-dynload", "explain", 3, "PaddlePaddle cannot open a CUDA or cuDNN library",
     "`The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not configured correctly. (error code is 126)`",
     "paddlepaddle-gpu opens cuDNN, cuBLAS and cudart by name at first GPU use; the library it names (of the major its build wants) is not on the search path, or (Windows error 126) a DLL it imports is missing",
     "install the cuDNN and CUDA versions this paddlepaddle-gpu build names (python -c \"import paddle; paddle.utils.run_check()\" prints them) and put their lib folder on LD_LIBRARY_PATH (bin on PATH on Windows); on Linux an unversioned libcudnn.so is needed: cudnnctl install creates it"},
    {"packages.pip-pin", "explain", 2, "pip or uv cannot satisfy a pinned nvidia-* wheel",
     "`torch 2.6.0 requires nvidia-cudnn-cu12==9.1.0.70, but you have nvidia-cudnn-cu12 9.8.0.87 which is incompatible`; `No matching distribution found for nvidia-cudnn-cu12==8.9.2.26`",
     "two packages pin different versions of the same nvidia-* wheel (torch wheels pin an exact nvidia-cudnn-cu12; JAX, onnxruntime-gpu or paddlepaddle-gpu want others), or a pinned version is not on the package index for this Python and platform; pip then installs one and breaks the other",
     "let the package that pins it decide: pip install --force-reinstall \"nvidia-cudnn-cu12==<the version it requires>\" (pip check lists what still disagrees), or pick releases of both packages that pin the same cuDNN, or keep them in separate virtual environments"},
    {"loader.glibc", "explain", 3, "A library needs a newer glibc or libstdc++ than this system's",
     "`/lib64/libc.so.6: version 'GLIBC_2.29' not found`; `libstdc++.so.6: version 'GLIBCXX_3.4.29' not found (required by ...)` (the quotes are a backtick and an apostrophe)",
     "the library was built on a newer system: it needs the glibc (GLIBC_x) or libstdc++ (GLIBCXX_x) symbol version named, and the libc.so.6 or libstdc++.so.6 the loader found is older (an old distribution, or an old libstdc++ found first, e.g. the system's instead of a conda env's)",
     "compare with the host: ldd --version (glibc) and strings /usr/lib/x86_64-linux-gnu/libstdc++.so.6 | grep GLIBCXX; then use a newer OS image or container base, or a build of the library made for this glibc (an older cuDNN or wheel); for GLIBCXX in a conda env: conda install -c conda-forge libstdcxx-ng and put $CONDA_PREFIX/lib first on LD_LIBRARY_PATH"},
};
} // namespace

std::span<const Signature> signatures() { return k_signatures; }

const Signature& signature(std::string_view id) {
  for (const auto& s : k_signatures)
    if (s.id == id) return s;
  std::abort();
}

std::string troubleshooting_markdown() {
  static const char* layers[] = {"", "Toolkit", "Files", "Loader", "Driver and device", "Workload"};
  std::string out =
      "# Troubleshooting cuDNN set-ups\n\n"
      "Every failure `cudnnctl doctor` recognises, with its cause and fix. Generated from the doctor's own table\n"
      "(`src/explain/signatures.cpp`) by `cudnnctl __generate troubleshooting`; a test keeps this file in step.\n"
      "Run `cudnnctl doctor` to see which of these applies to a machine (`--json` for CI), `cudnnctl explain LOG` to name\n"
      "the messages of a log, and `cudnnctl trace -- COMMAND` to see which libraries a program really loads.\n";
  int layer = 0;
  std::vector<const Signature*> by_layer;
  for (const auto& s : k_signatures) by_layer.push_back(&s);
  std::stable_sort(by_layer.begin(), by_layer.end(), [](const Signature* a, const Signature* b) { return a->layer < b->layer; });
  for (const auto* sp : by_layer) {
    const auto& s = *sp;
    if (s.layer != layer) {
      layer = s.layer;
      out += fmt::format("\n## Layer {}: {}\n", layer, layers[layer]);
    }
    out += fmt::format("\n### {}\n\n", s.title);
    out += fmt::format("- check: `{}` (signature `{}`)\n", s.check, s.id);
    if (!s.symptom.empty()) out += fmt::format("- what you see: {}\n", s.symptom);
    out += fmt::format("- cause: {}\n- fix: {}\n", s.cause, s.fix);
    if (s.harmless) out += "- harmless: yes, the message is noise (`cudnnctl explain` says so)\n";
  }
  return out;
}

} // namespace cudnnctl
