#include "app_resources.hpp"

#include <QFile>

// Q_INIT_RESOURCE must be used outside any namespace.
static void registerSiglabResources() { Q_INIT_RESOURCE(siglab); }

namespace siglab::gui {
namespace {

void ensureRegistered() {
  static const bool registered = (registerSiglabResources(), true);
  (void)registered;
}

}  // namespace

QIcon applicationIcon() {
  ensureRegistered();
  return QIcon(":/siglab.svg");
}

QIcon toolbarIcon(const QString& name) {
  ensureRegistered();
  return QIcon(":/icons/" + name + ".svg");
}

}  // namespace siglab::gui
