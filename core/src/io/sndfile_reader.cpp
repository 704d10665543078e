#include "sndfile_reader.hpp"

#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include <cstdint>

namespace siglab {

SndfileReader::SndfileReader(Bytes bytes, std::unique_ptr<FileBytes> owner, std::string path, std::string what,
                             bool allowNonFinite)
    : owner_(std::move(owner)), path_(std::move(path)), what_(std::move(what)), allowNonFinite_(allowNonFinite),
      memory_{bytes}, io_(memoryIo()) {
  if (bytes.empty()) fail("the file is empty");
  sound_.reset(sf_open_virtual(&io_, SFM_READ, &info_, &memory_));
  if (!sound_) fail(std::string("not a readable file: ") + sf_strerror(nullptr));
  if (info_.channels <= 0) fail("the header states no channels");
  if (info_.samplerate <= 0) fail("the header states no sample rate");
  // Streamed encodes may leave the length out (0, or libsndfile's "unknown"): read to the end then.
  if (info_.frames > 0 && info_.frames < SF_COUNT_MAX) frames_ = static_cast<std::uint64_t>(info_.frames);
  // A length no file of this size can hold is damage, not memory to set aside (found by fuzz-audio:
  // 294 bytes of FLAC claiming 4294967273 frames). FLAC's densest frame, 65535 samples of one
  // value, takes 8 bytes: 16384 frames a byte is twice that.
  constexpr std::uint64_t kMaxFramesPerByte = 16384;
  if (frames_ && *frames_ / kMaxFramesPerByte > bytes.size()) {
    fail("its header claims " + std::to_string(*frames_) + " frames, more than a file of " +
         std::to_string(bytes.size()) + " bytes can hold (the file is damaged)");
  }
}

void SndfileReader::fail(const std::string& what) const { throw InputError(path_, what_ + " file: " + what); }

double SndfileReader::fractionRead() const {
  if (frames_) return *frames_ == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(*frames_);
  return memory_.input.empty() ? 1.0 : static_cast<double>(memory_.position) / static_cast<double>(memory_.input.size());
}

std::size_t SndfileReader::readInterleaved(std::span<double> out) {
  const std::size_t channelCount = channels();
  std::size_t wanted = out.size() / channelCount;
  if (frames_) wanted = static_cast<std::size_t>(std::min<std::uint64_t>(wanted, *frames_ - next_));
  std::size_t done = 0;
  while (done < wanted) {
    const sf_count_t got = sf_readf_double(sound_.get(), out.data() + done * channelCount,
                                           static_cast<sf_count_t>(wanted - done));
    if (sf_error(sound_.get()) != SF_ERR_NO_ERROR) {
      std::string why = sf_strerror(sound_.get());
      if (why.rfind("Error : ", 0) == 0) why.erase(0, 8);
      fail("corrupt data in frames " + std::to_string(next_ + done + 1) + " to " + std::to_string(next_ + wanted) +
           " (" + why + ")");
    }
    if (got <= 0) {
      if (!frames_) break;  // the end of a stream of unstated length
      fail("its header promises " + std::to_string(*frames_) + " frames but only " + std::to_string(next_ + done) +
           " could be decoded (the file is cut short or damaged)");
    }
    done += static_cast<std::size_t>(got);
  }
  if (!allowNonFinite_) requireFinite(out.first(done * channelCount), path_, next_ * channelCount);
  next_ += done;
  if (owner_) {
    constexpr sf_count_t kKeep = 1 << 20;  // what libsndfile may still look at stays resident
    if (memory_.position > released_ + 2 * kKeep) {
      owner_->release(static_cast<std::size_t>(released_), static_cast<std::size_t>(memory_.position - kKeep - released_));
      released_ = memory_.position - kKeep;
    }
    if (done < wanted || (frames_ && next_ == *frames_)) owner_->throwIfChanged();
  }
  return done;
}

void SndfileReader::seek(std::uint64_t frame) {
  if (sf_seek(sound_.get(), static_cast<sf_count_t>(frame), SEEK_SET) < 0) {
    fail(std::string("cannot seek: ") + sf_strerror(sound_.get()));
  }
  next_ = frame;
}

std::optional<SndfileShape> sndfileShape(Bytes bytes) {
  MemoryFile memory{bytes};
  SF_VIRTUAL_IO io = memoryIo();
  SF_INFO info{};
  const SndfileHandle sound(sf_open_virtual(&io, SFM_READ, &info, &memory));
  if (!sound) return std::nullopt;
  return SndfileShape{info.format & SF_FORMAT_TYPEMASK, static_cast<std::size_t>(info.channels),
                      static_cast<double>(info.samplerate)};
}

}  // namespace siglab
