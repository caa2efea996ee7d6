// min and max with the operand order of the x86 minps/maxps instructions: the second
// operand wins ties and unordered (NaN) comparisons. std::min, std::clamp and fminf differ
// there, so the SIMD code could not match them bit for bit. Included in a namespace with
// the other reference .inl files (see circle_aabb.inl).
inline float min_ps(float a, float b) {
    return a < b ? a : b;
}
inline float max_ps(float a, float b) {
    return a > b ? a : b;
}
