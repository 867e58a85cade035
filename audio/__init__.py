"""Audio in and out: sources, sinks, resampling, voice activity and the endpointer."""

SAMPLE_RATE = 16_000
FRAME_SAMPLES = 512  # 32 ms at 16 kHz, the frame size silero-vad expects
FRAME_SECONDS = FRAME_SAMPLES / SAMPLE_RATE
