# Sourced by gpu-check.sh. Where libsndfile or FFTW3 is missing and .debs/ (scripts/fetch-gpu-deps.sh) was
# carried, unpack the packages into a private prefix and point pkg-config, the linker and the
# loader at it. A minimal sndfile.pc stands in for Debian's, whose Requires.private would need
# every codec's -dev package.
siglab_use_carried_deps() {
  if command -v pkg-config > /dev/null && pkg-config --exists sndfile fftw3; then return 0; fi
  local debs=.debs prefix=/tmp/siglab-deps
  if ! compgen -G "$debs/*.deb" > /dev/null; then
    echo "libsndfile or fftw3 is missing here and no .debs/ was carried: run scripts/fetch-gpu-deps.sh first" >&2
    return 1
  fi
  mkdir -p "$prefix/pkgconfig"
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$prefix"; done
  local lib=$prefix/usr/lib/x86_64-linux-gnu
  cat > "$prefix/pkgconfig/sndfile.pc" <<PC
Name: sndfile
Description: libsndfile, unpacked from carried Debian packages
Version: 1.2.0
Libs: -L$lib -lsndfile
Cflags: -I$prefix/usr/include
PC
  cat > "$prefix/pkgconfig/fftw3.pc" <<PC
Name: fftw3
Description: FFTW3 (double), unpacked from carried Debian packages
Version: 3.3.10
Libs: -L$lib -lfftw3 -lm
Cflags: -I$prefix/usr/include
PC
  export PKG_CONFIG_PATH=$prefix/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LIBRARY_PATH=$lib${LIBRARY_PATH:+:$LIBRARY_PATH}
  if ! command -v pkg-config > /dev/null; then
    ln -sf "$prefix/usr/bin/pkgconf" "$prefix/usr/bin/pkg-config"
    export PATH=$prefix/usr/bin:$PATH
  fi
  echo "using libsndfile and fftw3 from the carried packages in $prefix"
}
