// The handles of String variables (eqc_external.h: eqc_string_handle, eqc_string_text): one number
// per text for the process, "" is 0, any other number gives "", and threads that make handles of
// the same texts at once agree on them (a sweep's workers do).
#include "eqc/eqc_external.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <thread>
#include <vector>

TEST(StringHandles, OneNumberPerTextForTheProcess) {
  EXPECT_EQ(eqc_string_handle(""), 0);
  EXPECT_EQ(eqc_string_handle(nullptr), 0);
  EXPECT_STREQ(eqc_string_text(0), "");
  const int a = eqc_string_handle("idle"), b = eqc_string_handle("busy");
  EXPECT_GT(a, 0);
  EXPECT_NE(a, b);
  std::string copy = "idle"; // the same text at another address
  EXPECT_EQ(eqc_string_handle(copy.c_str()), a);
  EXPECT_STREQ(eqc_string_text(a), "idle");
  EXPECT_STREQ(eqc_string_text(b), "busy");
  const char *kept = eqc_string_text(a);
  for (int k = 0; k < 10000; ++k) // many more texts: the first ones stay where they are
    eqc_string_handle(("text " + std::to_string(k)).c_str());
  EXPECT_EQ(eqc_string_text(a), kept);
  for (double bad : {-1.0, 0.5, 1e12, std::numeric_limits<double>::quiet_NaN()})
    EXPECT_STREQ(eqc_string_text(bad), "") << bad;
}

TEST(StringHandles, ThreadsAgreeOnTheHandlesOfTheSameTexts) {
  constexpr int kThreads = 4, kTexts = 2003; // prime: k * (2t + 1) visits every text
  std::vector<std::vector<int>> handles(kThreads, std::vector<int>(kTexts));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&handles, t] {
      for (int k = 0; k < kTexts; ++k) { // each thread in its own order
        const int i = (k * (2 * t + 1)) % kTexts;
        handles[t][i] = eqc_string_handle(("shared " + std::to_string(i)).c_str());
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int k = 0; k < kTexts; ++k) {
    for (int t = 1; t < kThreads; ++t)
      ASSERT_EQ(handles[t][k], handles[0][k]) << k;
    EXPECT_EQ(eqc_string_text(handles[0][k]), "shared " + std::to_string(k));
  }
}
