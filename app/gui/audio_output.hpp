#pragma once
#include <QByteArray>
#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

#include "siglab/playback.hpp"

namespace siglab::gui {

// Where playback's bytes go: the default output of Qt Multimedia (qt_audio_output.cpp), or, in a
// build without it or on a machine with no output device, none that says why. Tests put their own.
class AudioOutput : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;
  // The device's rate, channels and sample format; nullopt when there is none (missing() says why).
  virtual std::optional<PlaybackDevice> device() const = 0;
  virtual QString missing() const = 0;
  virtual void start(QByteArray frames) = 0;  // from its first frame; replaces what played
  virtual void stop() = 0;
  virtual std::uint64_t framesPlayed() const = 0;  // since start

 signals:
  void finished();                  // played to its end
  void failed(const QString& why);  // the device stopped with an error
};

// What this build and machine have: Qt Multimedia's default output, or none saying why.
std::unique_ptr<AudioOutput> makeAudioOutput();

// No device to play on: every start fails with `why`.
class NoAudioOutput final : public AudioOutput {
  Q_OBJECT
 public:
  explicit NoAudioOutput(QString why) : why_(std::move(why)) {}
  std::optional<PlaybackDevice> device() const override { return std::nullopt; }
  QString missing() const override { return why_; }
  void start(QByteArray) override { emit failed(why_); }
  void stop() override {}
  std::uint64_t framesPlayed() const override { return 0; }

 private:
  QString why_;
};

}  // namespace siglab::gui
