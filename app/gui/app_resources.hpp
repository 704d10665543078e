#pragma once
#include <QIcon>
#include <QString>

namespace siglab::gui {

// The application's icon and the toolbar's, from resources/siglab.qrc (compiled into this static
// library, so registered once here before first use).
QIcon applicationIcon();
QIcon toolbarIcon(const QString& name);  // "open", "run", "export", ...: resources/icons/NAME.svg

inline constexpr const char* kDesktopFileName = "io.github.siglab.SigLab";

}  // namespace siglab::gui
