# `cpack` (run in the build folder) builds siglab_VERSION_ARCH.deb from the install rules. Its
# dependencies are the Debian packages of the shared libraries the binaries link (dpkg-shlibdeps);
# CUDA's runtime is linked statically (cuda/), and the GPU driver is found at run time.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME siglab)
set(CPACK_PACKAGE_VENDOR "The SigLab developers")
set(CPACK_PACKAGE_CONTACT "${SIGLAB_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "filter, resample and analyse signals on the CPU and the GPU, and compare the engines")
set(CPACK_PACKAGE_DESCRIPTION
    "SigLab filters signals of millions of samples with mean, Gaussian and custom filters on CPU and\n\
CUDA engines, checks every engine against the CPU reference and compares their speed. It provides\n\
the desktop application siglab (Qt 6) and the command-line tool siglab-cli.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # siglab_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${SIGLAB_HOMEPAGE})
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS bash-completion)  # loads the completions on demand
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
