// The default audio output through Qt Multimedia: the frames in a QBuffer read by a QAudioSink in
// the device's preferred format (the format preparePlayback encodes).
#include <QAudioDevice>
#include <QAudioFormat>
#include <QAudioSink>
#include <QBuffer>
#include <QMediaDevices>

#include "audio_output.hpp"

namespace siglab::gui {
namespace {

std::optional<PlaybackFormat> playbackFormatOf(QAudioFormat::SampleFormat format) {
  switch (format) {
    case QAudioFormat::UInt8: return PlaybackFormat::UInt8;
    case QAudioFormat::Int16: return PlaybackFormat::Int16;
    case QAudioFormat::Int32: return PlaybackFormat::Int32;
    case QAudioFormat::Float: return PlaybackFormat::Float32;
    default: return std::nullopt;
  }
}

class QtAudioOutput final : public AudioOutput {
 public:
  QtAudioOutput() : device_(QMediaDevices::defaultAudioOutput()), format_(device_.preferredFormat()) {
    if (device_.isNull()) {
      missing_ = tr("there is no audio output device");
    } else if (!playbackFormatOf(format_.sampleFormat()) || format_.channelCount() < 1 || format_.sampleRate() < 1) {
      missing_ = tr("the audio device %1 prefers a sample format SigLab cannot write").arg(device_.description());
    }
  }
  ~QtAudioOutput() override { stop(); }

  std::optional<PlaybackDevice> device() const override {
    if (!missing_.isEmpty()) return std::nullopt;
    return PlaybackDevice{static_cast<double>(format_.sampleRate()), static_cast<std::size_t>(format_.channelCount()),
                          *playbackFormatOf(format_.sampleFormat())};
  }
  QString missing() const override { return missing_; }

  void start(QByteArray frames) override {
    stop();
    if (!missing_.isEmpty()) {
      emit failed(missing_);
      return;
    }
    buffer_.setData(std::move(frames));
    buffer_.open(QIODevice::ReadOnly);
    sink_ = new QAudioSink(device_, format_, this);
    connect(sink_, &QAudioSink::stateChanged, this, [this](QAudio::State state) {
      if (!sink_) return;
      if (state == QAudio::IdleState) {
        stop();
        emit finished();
      } else if (state == QAudio::StoppedState && sink_->error() != QAudio::NoError) {
        stop();
        emit failed(tr("the audio device stopped with an error"));
      }
    });
    sink_->start(&buffer_);
  }

  void stop() override {
    if (sink_) {
      QAudioSink* sink = sink_;
      sink_ = nullptr;  // its stateChanged from stop() is no news
      sink->stop();
      sink->deleteLater();
    }
    buffer_.close();
  }

  std::uint64_t framesPlayed() const override {
    if (!sink_) return 0;
    return static_cast<std::uint64_t>(sink_->processedUSecs()) * static_cast<std::uint64_t>(format_.sampleRate()) / 1000000u;
  }

 private:
  QAudioDevice device_;
  QAudioFormat format_;
  QString missing_;
  QBuffer buffer_;
  QAudioSink* sink_ = nullptr;
};

}  // namespace

std::unique_ptr<AudioOutput> makeQtAudioOutput() { return std::make_unique<QtAudioOutput>(); }

}  // namespace siglab::gui
