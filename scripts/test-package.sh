#!/usr/bin/env bash
# Builds the .deb from a built tree (cpack), unpacks it with dpkg-deb -x and checks it as a user
# would meet it: files in their FHS places (and the same from `cmake --install` into a DESTDIR),
# the menu entry's icon and category, dependencies from the libraries it links, the man
# pages, the desktop entry, and the application started by the desktop entry's Exec line under
# Xvfb, with a screenshot (written to BUILD_DIR/screenshots/desktop-entry.png).
# Usage: test-package.sh BUILD_DIR SAMPLE_FILE
set -euo pipefail
build=$(realpath "$1")
sample=$(realpath "$2")
app_id=io.github.siglab.SigLab
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test-package: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack failed"; }
debs=("$work"/pkg/siglab_*.deb)
[[ -f ${debs[0]} ]] || fail "cpack made no siglab_*.deb"
deb=${debs[0]}
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6svg6 libsndfile1 libgomp1 libc6; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib (dpkg-shlibdeps should have found it)"
done
[[ $depends != *cudart* ]] || fail "Depends names CUDA's runtime, which is linked statically"
[[ $(dpkg-deb -f "$deb" Recommends) == *bash-completion* ]] || fail "the package does not recommend bash-completion"

# Every file in its FHS place, in the package and in a `cmake --install` into a DESTDIR.
check_places() {  # ROOT WHAT
  local f size png
  for f in usr/bin/siglab usr/bin/siglab-cli \
           usr/share/applications/$app_id.desktop usr/share/metainfo/$app_id.metainfo.xml \
           usr/share/icons/hicolor/scalable/apps/$app_id.svg \
           usr/share/man/man1/siglab.1.gz usr/share/man/man1/siglab-cli.1.gz \
           usr/share/bash-completion/completions/siglab usr/share/bash-completion/completions/siglab-cli \
           usr/share/doc/siglab/copyright; do
    [[ -s $1/$f ]] || fail "$2 lacks /$f"
  done
  [[ -x $1/usr/bin/siglab && -x $1/usr/bin/siglab-cli ]] || fail "$2: the programs are not executable"
  for size in 16 24 32 48 64 128 256 512; do
    png=$1/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png
    [[ -s $png ]] || fail "$2 lacks the ${size}x${size} icon"
    [[ $(file -b "$png") == *"PNG image data, $size x $size"* ]] || fail "$png is not a ${size}x${size} PNG: $(file -b "$png")"
  done
}
root=$work/root
dpkg-deb -x "$deb" "$root"
check_places "$root" "the package"
DESTDIR=$work/destdir cmake --install "$build" --prefix /usr >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install failed"; }
check_places "$work/destdir" "cmake --install with DESTDIR"
extra=$(comm -3 <(cd "$root" && find . -type f | sort) <(cd "$work/destdir" && find . -type f | sort))
[[ -z $extra ]] || fail "the package and cmake --install put different files: $extra"

# The menu shows the entry with its icon: a main category, and the Icon name is an installed icon.
desktop_icon=$(sed -n 's/^Icon=//p' "$root/usr/share/applications/$app_id.desktop")
[[ -s $root/usr/share/icons/hicolor/scalable/apps/$desktop_icon.svg && -s $root/usr/share/icons/hicolor/48x48/apps/$desktop_icon.png ]] ||
  fail "the desktop entry's Icon=$desktop_icon is not an installed icon"
grep -qE '^Categories=.*(Science|Education|Development);' "$root/usr/share/applications/$app_id.desktop" ||
  fail "the desktop entry has no main menu category"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$root/usr/share/metainfo/$app_id.metainfo.xml" ||
  fail "the metainfo does not name the desktop entry"

for page in siglab-cli siglab; do
  text=$(MANWIDTH=100 man -l "$root/usr/share/man/man1/$page.1.gz" 2>&1)
  [[ $text == *"$page"* && $text == *DESCRIPTION* ]] || fail "man -l $page.1.gz: $text"
done
man_cli=$(MANWIDTH=100 man -l "$root/usr/share/man/man1/siglab-cli.1.gz")
for command in filter stats generate; do
  [[ $man_cli == *"siglab-cli $command"* || $man_cli == *"   $command"* ]] || fail "siglab-cli(1) does not describe '$command'"
done
for completion in siglab-cli siglab; do
  bash -n "$root/usr/share/bash-completion/completions/$completion" || fail "the bash completion of $completion does not parse"
  ! grep -q _init_completion "$root/usr/share/bash-completion/completions/$completion" ||
    fail "the bash completion of $completion needs the bash-completion package"
done

desktop=$root/usr/share/applications/$app_id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate rejects the installed desktop file"
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
[[ -n $exec_line ]] || fail "the desktop file has no Exec line"
command_line=${exec_line//%f/$sample}

# Start the menu entry's command under Xvfb as the menu would: the package's bin first on PATH.
mkdir -p "$build/screenshots"
shot=$build/screenshots/desktop-entry.png
cat >"$work/session.sh" <<SESSION
set -euo pipefail
export PATH="$root/usr/bin:\$PATH" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
unset QT_QPA_PLATFORM WAYLAND_DISPLAY
mkdir -p "\$HOME"
$command_line >"$work/app.log" 2>&1 &
app=\$!
for _ in \$(seq 1 300); do
  if xwininfo -root -tree 2>/dev/null | grep -q 'noise_sample.txt'; then break; fi
  kill -0 \$app 2>/dev/null || { echo "the application exited:"; cat "$work/app.log"; exit 1; }
  sleep 0.2
done
xwininfo -root -tree | grep -m1 'noise_sample.txt' >"$work/window.txt" || { echo "no window with the sample's name appeared in 60 s"; cat "$work/app.log"; exit 1; }
sleep 1   # let the plot draw
xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng >"$shot"
xwd -root -silent | xwdtopnm 2>/dev/null | ppmhist -noheader | wc -l >"$work/colours.txt"
kill \$app
wait \$app || true
SESSION
xvfb-run -a -s "-screen 0 1600x1000x24" bash "$work/session.sh" || fail "the desktop entry's command did not show the signal"
echo "window: $(cat "$work/window.txt")"
colours=$(cat "$work/colours.txt")
((colours > 20)) || fail "the screenshot has $colours colours: nothing was drawn"
# The first window takes most of the 1600x1000 screen (its size is the last WxH+X+Y on the line).
read -r width height < <(grep -oE '[0-9]+x[0-9]+\+' "$work/window.txt" | head -1 | tr 'x+' '  ')
((width >= 1200 && height >= 750)) || fail "the first window is ${width}x${height} on a 1600x1000 screen"
echo "screenshot: $shot ($colours colours); package test passed"
